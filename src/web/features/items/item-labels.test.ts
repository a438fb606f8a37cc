import { BUILT_IN_MODEL } from '@shared/model/registry';
import { UNNAMED_ITEM } from '@shared/validation/messages';
import {
  approvalChips,
  BLANK_USER,
  itemThumbId,
  itemTitle,
  listTitle,
  publishChips,
  UNKNOWN_USER,
  userLabel,
} from './item-labels';

const copy = BUILT_IN_MODEL.schema('copy')!;
const imageSet = BUILT_IN_MODEL.schema('marquee-assets-image-set')!;
const blogPost = BUILT_IN_MODEL.schema('blog-post')!;

describe('itemTitle', () => {
  it('is the name when there is one, trimmed', () => {
    expect(itemTitle({ name: '  Spring sale ', text: 'x' })).toBe('Spring sale');
  });

  // Regression: an unnamed item was titled with its first text field (its description or copy text).
  it("is '-- UNNAMED ITEM --' without a name, whatever other text the item has", () => {
    expect(itemTitle({ name: '', text: 'Everything 20% off', description: 'Loyal buyers' })).toBe(
      UNNAMED_ITEM,
    );
    expect(itemTitle({})).toBe(UNNAMED_ITEM);
    expect(itemTitle({ name: '   ', text: null })).toBe(UNNAMED_ITEM);
    expect(itemTitle({ name: 42 })).toBe(UNNAMED_ITEM);
  });
});

describe('itemThumbId', () => {
  it("reads the storage name at the schema's thumbnail path", () => {
    expect(
      itemThumbId(imageSet, { masterImage: { storageName: 'abcdefabcdefabcd.jpg', name: 'a.jpg' } }),
    ).toBe('abcdefabcdefabcd.jpg');
  });

  it('is undefined without a thumbnail path or an uploaded file', () => {
    expect(itemThumbId(copy, { masterImage: { storageName: 'x.jpg' } })).toBeUndefined();
    expect(itemThumbId(imageSet, {})).toBeUndefined();
    expect(itemThumbId(imageSet, { masterImage: 'not a file' })).toBeUndefined();
    expect(itemThumbId(imageSet, { masterImage: { storageName: '' } })).toBeUndefined();
  });
});

describe('userLabel', () => {
  const members = [
    { userId: 'u1', displayName: 'Eve Editor' },
    { userId: 'u2', displayName: '   ' },
  ];

  it("prefers the member's display name", () => {
    expect(userLabel('u1', 'Old Name', members)).toBe('Eve Editor');
  });

  it('uses the name the server knew for someone no longer a member', () => {
    expect(userLabel('u9', 'Former Colleague', members)).toBe('Former Colleague');
  });

  it("is 'BLANK USER' for an empty id or a blank name", () => {
    expect(userLabel('', 'x', members)).toBe(BLANK_USER);
    expect(userLabel(null, null, members)).toBe(BLANK_USER);
    expect(userLabel('u2', null, members)).toBe(BLANK_USER);
    expect(userLabel('u9', '  ', members)).toBe(BLANK_USER);
  });

  it("is 'UNKNOWN USER' when nothing resolves the id", () => {
    expect(userLabel('u9', null, members)).toBe(UNKNOWN_USER);
    expect(userLabel('u9', undefined, undefined)).toBe(UNKNOWN_USER);
  });

  it("spells the spec's labels", () => {
    expect([UNKNOWN_USER, BLANK_USER]).toEqual(['UNKNOWN USER', 'BLANK USER']);
  });
});

describe('publishChips', () => {
  const status = { live: 'MODIFIED', staging: 'CURRENT' } as const;

  it('gives one chip per stage in workspace order: MODIFIED warning, CURRENT positive, both clickable', () => {
    expect(publishChips(status, ['Staging', 'Live', 'QA Review'])).toEqual([
      {
        stage: 'staging',
        stageLabel: 'Staging',
        status: 'CURRENT',
        label: 'Staging: Current',
        color: 'teal',
        clickable: true,
      },
      {
        stage: 'live',
        stageLabel: 'Live',
        status: 'MODIFIED',
        label: 'Live: Modified',
        color: 'orange',
        clickable: true,
      },
      {
        stage: 'qa-review',
        stageLabel: 'QA Review',
        status: 'NOT_PUBLISHED',
        label: 'QA Review: Not published',
        color: 'gray',
        clickable: false,
      },
    ]);
  });

  it('can leave out stages without a copy (lists)', () => {
    expect(publishChips(status, ['Live', 'QA Review'], { publishedOnly: true }).map((c) => c.stage)).toEqual([
      'live',
    ]);
  });
});

describe('approvalChips', () => {
  const roles = {
    legal: { name: 'Legal', canEdit: [], canPublish: [], mustApprove: ['copy'] },
    brand: { name: 'Brand', canEdit: [], canPublish: [], mustApprove: ['copy'] },
  };

  it('shows approved roles first, then the ones still awaited, by role name', () => {
    const item = {
      remainingApprovals: ['legal'],
      approvedBy: [
        { roleId: 'brand', roleLabel: 'Brand', byId: 'u1', byName: 'Bea', at: '2026-01-01T00:00:00Z' },
      ],
    };
    expect(approvalChips(item, roles)).toEqual([
      { roleId: 'brand', label: 'Approved by Brand', approved: true },
      { roleId: 'legal', label: 'Awaiting Legal', approved: false },
    ]);
  });

  it('labels a role that no longer exists by its id', () => {
    expect(approvalChips({ remainingApprovals: ['gone'], approvedBy: [] }, roles)).toEqual([
      { roleId: 'gone', label: 'Awaiting gone', approved: false },
    ]);
  });

  it('gives none when nobody must approve', () => {
    expect(approvalChips({ remainingApprovals: [], approvedBy: [] }, roles)).toEqual([]);
  });
});

describe('listTitle', () => {
  it("is the saved view's name, or 'All {plural titles}'", () => {
    expect(listTitle('Published in Live', [copy])).toBe('Published in Live');
    expect(listTitle(undefined, [copy])).toBe('All Copies');
    expect(listTitle(undefined, [copy, blogPost])).toBe('All Copies, Blog Posts');
  });
});
