import { act } from 'react';
import { EditorView } from '@codemirror/view';
import { EditorSelection } from '@codemirror/state';
import type { FieldDef, Reference } from '@shared/schemas/types';
import { copy } from '@shared/schemas/marketing';
import { TEST_BEGIN_BLOCK, TEST_END_BLOCK } from '@shared/schemas/admin';
import {
  BEGIN_BLOCK_CHANGED_MESSAGE,
  DEFAULT_CODE_LOADED_MESSAGE,
  END_BLOCK_CHANGED_MESSAGE,
  UNNAMED_ITEM,
} from '@shared/validation/messages';
import { click, waitFor } from '@web/test/render';
import {
  bodyText,
  button,
  byLabel,
  changeValue,
  keyDown,
  pickOption,
  queryButton,
  queryByLabel,
  renderUi,
} from '../item-form/test-utils';
import { renderField } from './field-test-harness';
import { SizeDisplay } from './size-display';
import { safeHtml } from './safe-html';

const text: FieldDef = { key: 'title', label: 'Title', type: 'text' };

describe('text and multiline', () => {
  it('edits text and shows it read-only in view mode', async () => {
    const harness = await renderField(text, { title: 'Hello' });
    expect(byLabel('Title').value).toBe('Hello');
    await changeValue(byLabel('Title'), 'Hello world');
    expect(harness.scope().title).toBe('Hello world');
  });

  it('shows a dash for an empty value in view mode', async () => {
    await renderField(text, {}, { readOnly: true });
    expect(queryByLabel('Title')).toBeNull();
    expect(bodyText()).toBe('—');
  });

  it('edits multi-line text in a textarea', async () => {
    const harness = await renderField({ key: 'body', label: 'Body', type: 'multiline' }, { body: 'a' });
    const area = byLabel<HTMLTextAreaElement>('Body');
    expect(area.tagName).toBe('TEXTAREA');
    await changeValue(area, 'line one\nline two');
    expect(harness.scope().body).toBe('line one\nline two');
  });

  it('shows the field error', async () => {
    await renderField(text, {}, { errors: { title: 'Title is required' } });
    expect(bodyText()).toContain('Title is required');
  });
});

describe('name-slug', () => {
  const slug: FieldDef = { key: 'slug', label: 'Slug', type: 'name-slug', from: 'name' };

  it('stores typed text as kebab-case', async () => {
    const harness = await renderField(slug, { name: 'Ten Looks' });
    await changeValue(byLabel('Slug'), 'Summer Looks 2025!');
    expect(harness.scope().slug).toBe('summer-looks-2025');
  });

  it('derives the slug from the name when cleared', async () => {
    const harness = await renderField(slug, { name: 'Ten Summer Looks', slug: 'custom' });
    await changeValue(byLabel('Slug'), '');
    expect(harness.scope().slug).toBe('ten-summer-looks');
  });

  it('says under the emptied field what the slug will be', async () => {
    await renderField(slug, { name: 'Autumn Tea Launch', slug: 'tea' });
    expect(bodyText()).not.toContain('Derived from the name');
    await changeValue(byLabel('Slug'), ' ');
    expect(bodyText()).toContain('Derived from the name: autumn-tea-launch');
  });
});

describe('generatable', () => {
  it('is read-only above a generate length of 10', async () => {
    await renderField(
      { key: 'code', label: 'Code', type: 'generatable', generateLength: 12 },
      { code: 'AbCdEfGh1234' },
    );
    expect(byLabel('Code').readOnly).toBe(true);
    expect(bodyText()).toContain('Generated automatically');
  });

  it('is editable at 10 or below', async () => {
    const harness = await renderField(
      { key: 'code', label: 'Code', type: 'generatable', generateLength: 10 },
      {},
    );
    expect(byLabel('Code').readOnly).toBe(false);
    await changeValue(byLabel('Code'), 'mine');
    expect(harness.scope().code).toBe('mine');
  });
});

describe('number and range', () => {
  it('stores a typed number as a number', async () => {
    const harness = await renderField({ key: 'count', label: 'Count', type: 'number' }, {});
    await changeValue(byLabel('Count'), '42');
    expect(harness.scope().count).toBe(42);
  });

  it('moves a range slider by whole steps between min and max', async () => {
    const harness = await renderField(
      { key: 'score', label: 'Score', type: 'range', min: 1, max: 5 },
      { score: 4 },
    );
    const slider = document.querySelector<HTMLElement>('[role="slider"]')!;
    expect(slider.getAttribute('aria-valuemin')).toBe('1');
    expect(slider.getAttribute('aria-valuemax')).toBe('5');
    await keyDown(slider, 'ArrowRight');
    expect(harness.scope().score).toBe(5);
    await keyDown(slider, 'ArrowRight');
    expect(harness.scope().score).toBe(5);
    await keyDown(slider, 'ArrowLeft');
    expect(harness.scope().score).toBe(4);
  });
});

describe('boolean', () => {
  it('toggles and reads Yes or No', async () => {
    const harness = await renderField({ key: 'active', label: 'Active', type: 'boolean' }, {});
    await click(byLabel('Active'));
    expect(harness.scope().active).toBe(true);
  });

  it('reads Yes in view mode', async () => {
    await renderField(
      { key: 'active', label: 'Active', type: 'boolean' },
      { active: true },
      { readOnly: true },
    );
    expect(bodyText()).toBe('Yes');
  });
});

describe('select', () => {
  const channel: FieldDef = {
    key: 'channel',
    label: 'Channel',
    type: 'select',
    options: [
      { value: 'web', label: 'Web' },
      { value: 'sms', label: 'SMS' },
    ],
  };

  it('picks an option', async () => {
    const harness = await renderField(channel, {});
    await pickOption(byLabel('Channel'), 'SMS');
    expect(harness.scope().channel).toBe('sms');
  });

  it('shows a stored value no longer among the options as --Old Value--', async () => {
    await renderField(channel, { channel: 'fax' });
    expect(byLabel('Channel').value).toBe('--Old Value--fax');
  });

  it('shows old values among the chosen ones of a multiple select in view mode', async () => {
    await renderField(
      { ...channel, multiple: true } as FieldDef,
      { channel: ['web', 'fax'] },
      { readOnly: true },
    );
    expect(bodyText()).toContain('Web');
    expect(bodyText()).toContain('--Old Value--fax');
  });
});

describe('tags', () => {
  it('adds a free entry on Enter and keeps entries unique', async () => {
    const harness = await renderField({ key: 'tags', label: 'Tags', type: 'tags' }, { tags: ['summer'] });
    const input = byLabel('Tags');
    await changeValue(input, 'beach');
    await keyDown(input, 'Enter');
    expect(harness.scope().tags).toEqual(['summer', 'beach']);
    await changeValue(input, 'summer');
    await keyDown(input, 'Enter');
    expect(harness.scope().tags).toEqual(['summer', 'beach']);
  });

  it('shows tags as badges in view mode', async () => {
    await renderField({ key: 'tags', label: 'Tags', type: 'tags' }, { tags: ['a', 'b'] }, { readOnly: true });
    expect(bodyText()).toBe('ab');
  });
});

describe('date', () => {
  const due: FieldDef = { key: 'due', label: 'Due', type: 'date' };

  it('takes a date typed as YYYY/MM/DD; without bounds it has no hint to give', async () => {
    const harness = await renderField(due, {});
    expect(bodyText()).not.toContain('Select between');
    await changeValue(byLabel('Due'), '2025/06/20');
    expect(harness.scope().due).toBe('2025-06-20');
  });

  it('shows the bounds in the hint', async () => {
    await renderField({ ...due, min: '2025-01-01', max: '2025-12-31' } as FieldDef, {});
    expect(bodyText()).toContain('Select between 2025-01-01 and 2025-12-31');
  });

  it("shows the field's own help text beside the hint, not instead of it", async () => {
    // The hint 'Select between Beginning of Time and End of Time' stood where the field's help belonged.
    await renderField({ ...due, description: 'The day the task is due.' }, {});
    expect(bodyText()).toContain('The day the task is due.');
    expect(bodyText()).not.toContain('Select between');
  });

  it('shows both the help text and the bounds when the field has bounds', async () => {
    await renderField({ ...due, description: 'The day the task is due.', min: '2025-01-01' } as FieldDef, {});
    expect(bodyText()).toContain('The day the task is due.');
    expect(bodyText()).toContain('Select between 2025-01-01 and End of Time');
  });

  it('displays the date in view mode', async () => {
    await renderField(due, { due: '2025-06-15' }, { readOnly: true });
    expect(bodyText()).toBe('Sun Jun 15th, 2025');
  });
});

describe('date-time', () => {
  const start: FieldDef = { key: 'startTime', label: 'Start Time', type: 'datetime' };

  it('parses the 24-hour mask in the chosen zone and writes the _tz companion', async () => {
    const harness = await renderField(start, { startTime_tz: 'America/Los_Angeles' });
    expect(byLabel('Start Time').placeholder).toBe('YYYY/MM/DD HH:mm');
    await changeValue(byLabel('Start Time'), '2025/03/04 21:30');
    expect(harness.scope()).toEqual({
      startTime: '2025-03-05T05:30:00.000Z',
      startTime_tz: 'America/Los_Angeles',
    });
    expect(bodyText()).toContain('Tue Mar 4th, 2025 9:30 PM');
  });

  it('keeps the wall-clock time when another zone is chosen', async () => {
    const harness = await renderField(start, {
      startTime: '2025-03-05T05:30:00.000Z',
      startTime_tz: 'America/Los_Angeles',
    });
    await pickOption(byLabel('Start Time time zone'), 'America/New York');
    expect(harness.scope()).toEqual({
      startTime: '2025-03-05T02:30:00.000Z',
      startTime_tz: 'America/New_York',
    });
    expect(byLabel('Start Time').value).toBe('2025/03/04 21:30');
  });

  it('offers the workspace zones', async () => {
    await renderField(
      start,
      { startTime_tz: 'Europe/Paris' },
      { environment: { timezones: ['Europe/Paris', 'Asia/Tokyo'] } },
    );
    await act(async () => byLabel('Start Time time zone').click());
    const options = Array.from(document.querySelectorAll('[role="option"]')).map(
      (option) => option.textContent,
    );
    expect(options).toEqual(['Europe/Paris', 'Asia/Tokyo']);
  });

  it("shows the field's own help text, and the bounds only when it has them", async () => {
    await renderField({ ...start, description: 'When the doors open.' }, {});
    expect(bodyText()).toContain('When the doors open.');
    expect(bodyText()).not.toContain('Select between');
  });

  it('shows the bounds in the zone shown', async () => {
    await renderField(
      { ...start, description: 'When the doors open.', max: '2025-12-31T23:00:00.000Z' } as FieldDef,
      { startTime_tz: 'America/New_York' },
    );
    expect(bodyText()).toContain('When the doors open.');
    expect(bodyText()).toContain('Select between Beginning of Time and Wed Dec 31st, 2025 6:00 PM');
  });

  it('says how to type a date that does not fit the mask', async () => {
    const harness = await renderField(start, {});
    await changeValue(byLabel('Start Time'), '4 March');
    expect(bodyText()).toContain('Type YYYY/MM/DD HH:mm (24-hour)');
    expect(harness.patches).toEqual([]);
  });

  it('displays the value in its zone in view mode', async () => {
    await renderField(
      start,
      { startTime: '2025-07-04T00:00:00.000Z', startTime_tz: 'America/New_York' },
      { readOnly: true },
    );
    expect(bodyText()).toBe('Thu Jul 3rd, 2025 8:00 PM America/New York');
  });
});

describe('references', () => {
  const refs: Reference[] = [
    { id: 'c1', schemaType: 'copy', label: 'Headline' },
    { id: 'c2', schemaType: 'copy', label: 'Footer' },
    { id: 'c3', schemaType: 'copy' },
  ];
  const search = vi.fn(async (_types: readonly string[], query: string) =>
    refs.filter((ref) => (ref.label ?? '').toLowerCase().includes(query.toLowerCase())),
  );

  it('a single reference is full after one selection, and free again when removed', async () => {
    const harness = await renderField(
      { key: 'hero', label: 'Hero', type: 'reference', schemaTypes: ['copy'] },
      {},
      { environment: { referenceSearch: search } },
    );
    await changeValue(byLabel('Hero'), 'head');
    await waitFor(() => expect(document.querySelector('[role="option"]')).not.toBeNull());
    await pickOption(byLabel('Hero'), 'Headline');
    expect(harness.scope().hero).toEqual(refs[0]);
    expect(queryByLabel('Hero')).toBeNull();
    expect(bodyText()).toContain('Headline');
    await click(byLabel('Remove Headline'));
    expect(harness.scope().hero).toBeNull();
    expect(queryByLabel('Hero')).not.toBeNull();
  });

  it('a reference list reorders up and down and names unnamed items', async () => {
    const harness = await renderField(
      { key: 'copy', label: 'Copy', type: 'reference-list', schemaTypes: ['copy'] },
      { copy: [refs[0], refs[2]] },
      { environment: { referenceSearch: search } },
    );
    expect(bodyText()).toContain(UNNAMED_ITEM);
    await click(byLabel('Move Headline down'));
    expect((harness.scope().copy as Reference[]).map((ref) => ref.id)).toEqual(['c3', 'c1']);
    await click(byLabel('Move Headline up'));
    expect((harness.scope().copy as Reference[]).map((ref) => ref.id)).toEqual(['c1', 'c3']);
    await click(byLabel(`Remove ${UNNAMED_ITEM}`));
    expect((harness.scope().copy as Reference[]).map((ref) => ref.id)).toEqual(['c1']);
  });

  it('a reference list adds a found item at the end', async () => {
    const harness = await renderField(
      { key: 'copy', label: 'Copy', type: 'reference-list', schemaTypes: ['copy'] },
      { copy: [refs[0]] },
      { environment: { referenceSearch: search } },
    );
    await changeValue(byLabel('Copy'), 'foot');
    await waitFor(() => expect(document.querySelector('[role="option"]')).not.toBeNull());
    await pickOption(byLabel('Copy'), 'Footer');
    expect((harness.scope().copy as Reference[]).map((ref) => ref.id)).toEqual(['c1', 'c2']);
  });
});

describe('table', () => {
  const properties: FieldDef = {
    key: 'properties',
    label: 'Properties',
    type: 'table',
    maxRows: 2,
    columns: [
      { key: 'name', label: 'Name', type: 'text' },
      { key: 'kind', label: 'Kind', type: 'select', options: [{ value: 'string', label: 'String' }] },
    ],
  };

  it('adds rows until the maximum, then hides Add', async () => {
    const harness = await renderField(properties, {});
    await click(button('Add row'));
    expect(harness.scope().properties).toEqual([{}]);
    await click(button('Add row'));
    expect(harness.scope().properties).toEqual([{}, {}]);
    expect(queryButton('Add row')).toBeNull();
  });

  it('edits cells, moves and removes rows', async () => {
    const harness = await renderField(properties, { properties: [{ name: 'sku' }, { name: 'price' }] });
    const cells = Array.from(document.querySelectorAll<HTMLInputElement>('input[aria-label="Name"]'));
    await changeValue(cells[1], 'amount');
    expect(harness.scope().properties).toEqual([{ name: 'sku' }, { name: 'amount' }]);
    await click(byLabel('Move row 2 up'));
    expect(harness.scope().properties).toEqual([{ name: 'amount' }, { name: 'sku' }]);
    await click(byLabel('Remove row 1'));
    expect(harness.scope().properties).toEqual([{ name: 'sku' }]);
    expect(queryButton('Add row')).not.toBeNull();
  });

  it('shows cell errors by their path', async () => {
    await renderField(
      properties,
      { properties: [{}] },
      { errors: { 'properties.0.name': 'Name is required' } },
    );
    expect(bodyText()).toContain('Name is required');
  });
});

describe('code', () => {
  const code: FieldDef = {
    key: 'code',
    label: 'Code',
    type: 'code',
    language: 'javascript',
    beginBlock: TEST_BEGIN_BLOCK,
    endBlock: TEST_END_BLOCK,
    defaultCode: '  return true;',
  };
  const good = `${TEST_BEGIN_BLOCK}  return 1 > 0;${TEST_END_BLOCK}`;

  async function editor() {
    const content = await waitFor(() => {
      const found = document.querySelector<HTMLElement>('.cm-content');
      if (!found) throw new Error('editor not loaded');
      return found;
    });
    return EditorView.findFromDOM(content)!;
  }

  it('refuses an edit of the beginning block and keeps the last good code', async () => {
    const harness = await renderField(code, { code: good });
    const view = await editor();
    await act(async () => view.dispatch({ changes: { from: 0, to: 2, insert: '#' } }));
    await waitFor(() => expect(bodyText()).toContain(BEGIN_BLOCK_CHANGED_MESSAGE));
    expect(view.state.doc.toString()).toBe(good);
    expect(harness.patches).toEqual([]);
  });

  it('refuses an edit of the ending block', async () => {
    await renderField(code, { code: good });
    const view = await editor();
    const length = view.state.doc.length;
    await act(async () => view.dispatch({ changes: { from: length - 2, to: length } }));
    await waitFor(() => expect(bodyText()).toContain(END_BLOCK_CHANGED_MESSAGE));
    expect(view.state.doc.toString()).toBe(good);
  });

  it('accepts an edit between the blocks', async () => {
    const harness = await renderField(code, { code: good });
    const view = await editor();
    const at = TEST_BEGIN_BLOCK.length;
    await act(async () =>
      view.dispatch({ changes: { from: at, insert: '  // ok\n' }, selection: EditorSelection.cursor(at) }),
    );
    expect(harness.scope().code).toBe(`${TEST_BEGIN_BLOCK}  // ok\n  return 1 > 0;${TEST_END_BLOCK}`);
    expect(bodyText()).not.toContain(BEGIN_BLOCK_CHANGED_MESSAGE);
  });

  it('loads the default code when the code is emptied', async () => {
    const harness = await renderField(code, { code: good });
    const view = await editor();
    await act(async () => view.dispatch({ changes: { from: 0, to: view.state.doc.length } }));
    await waitFor(() => expect(bodyText()).toContain(DEFAULT_CODE_LOADED_MESSAGE));
    expect(view.state.doc.toString()).toBe(`${TEST_BEGIN_BLOCK}  return true;${TEST_END_BLOCK}`);
    expect(harness.scope().code).toBe(`${TEST_BEGIN_BLOCK}  return true;${TEST_END_BLOCK}`);
  });

  it('shows an empty stored code as the default with the message, 400 pixels high', async () => {
    await renderField(code, {}, { readOnly: true });
    const view = await editor();
    expect(view.state.doc.toString()).toBe(`${TEST_BEGIN_BLOCK}  return true;${TEST_END_BLOCK}`);
    expect(bodyText()).toContain(DEFAULT_CODE_LOADED_MESSAGE);
    expect(view.state.readOnly).toBe(true);
  });
});

describe('combinations', () => {
  const field = copy.fields.find((candidate) => candidate.type === 'combinations')!;

  it('adds a combination, names it (kebab-case once the name is left) and adds an override', async () => {
    const harness = await renderField(field, {}, { environment: { schema: copy } });
    await click(button('Add combination'));
    await changeValue(byLabel('Combination 1 name'), 'UK Mobile');
    await pickOption(byLabel('Add override to combination 1'), 'Text');
    const overrideText = document.querySelector<HTMLTextAreaElement>(
      '[data-combination="0"] textarea[aria-label="Text"]',
    )!;
    await changeValue(overrideText, 'Cheerio');
    expect(harness.scope().combinations).toEqual([
      { _slug: 'uk-mobile', variations: {}, overrides: { text: 'Cheerio' } },
    ]);
  });

  it('shows the name and override errors of a row', async () => {
    await renderField(
      field,
      { combinations: [{ _slug: '', variations: {}, overrides: {} }] },
      {
        environment: { schema: copy },
        errors: {
          'combinations.0._slug': 'Name is required',
          'combinations.0.overrides': 'At least one Override is required',
        },
      },
    );
    expect(bodyText()).toContain('Name is required');
    expect(bodyText()).toContain('At least one Override is required');
  });
});

describe('schema selector', () => {
  const selector: FieldDef = { key: 'schema', label: 'Schema', type: 'schema-selector' };

  it('generates types and lets them be copied', async () => {
    const generateTypes = vi.fn(async (name: string) => `interface ${name} {}`);
    await renderField(selector, { schema: 'copy' }, { environment: { generateTypes } });
    expect(button('Copy').disabled).toBe(true);
    await click(button('Generate Types'));
    await waitFor(() => expect(bodyText()).toContain('interface copy {}'));
    expect(generateTypes).toHaveBeenCalledWith('copy');
    expect(button('Copy').disabled).toBe(false);
  });

  it('reports a failure as Types not generated', async () => {
    await renderField(
      selector,
      { schema: 'copy' },
      { environment: { generateTypes: async () => Promise.reject(new Error('Unknown schema')) } },
    );
    await click(button('Generate Types'));
    await waitFor(() => expect(bodyText()).toContain('Types not generated. Unknown schema'));
  });

  it('chooses a schema', async () => {
    const harness = await renderField(selector, {});
    await pickOption(byLabel('Schema'), 'Copy (Marketing)');
    expect(harness.scope().schema).toBe('copy');
  });
});

describe('country', () => {
  it('shows the name and code in view mode', async () => {
    await renderField(
      { key: 'country', label: 'Country', type: 'country' },
      { country: 'DE' },
      { readOnly: true },
    );
    expect(bodyText()).toBe('Germany (DE)');
  });

  it('picks a country from the list', async () => {
    const harness = await renderField({ key: 'country', label: 'Country', type: 'country' }, {});
    await changeValue(byLabel('Country'), 'Fra');
    await pickOption(byLabel('Country'), 'France (FR)');
    expect(harness.scope().country).toBe('FR');
  });
});

describe('size display', () => {
  it.each([
    [0, '0 Bytes'],
    [1536, '1.50 KB'],
    [-1, 'Invalid size'],
  ])('shows %s bytes as %s', async (bytes, shown) => {
    await renderUi(<SizeDisplay bytes={bytes} />);
    expect(bodyText()).toBe(shown);
  });
});

describe('read-only displays of later editors', () => {
  it('rich text shows cleaned HTML', async () => {
    await renderField(
      { key: 'body', label: 'Body', type: 'rich-text' },
      { body: '<p>Hi <strong>there</strong></p><script>alert(1)</script><img src="x" onerror="alert(1)">' },
      { readOnly: true },
    );
    expect(bodyText()).toBe('Hi there');
    expect(document.querySelector('script')).toBeNull();
    expect(document.querySelector('[onerror]')).toBeNull();
  });

  it('the cleaner drops unsafe links and keeps safe ones', () => {
    expect(safeHtml('<a href="javascript:alert(1)">x</a>')).toBe(
      '<a target="_blank" rel="noopener noreferrer">x</a>',
    );
    expect(safeHtml('<a href="https://example.com">x</a>')).toContain('href="https://example.com"');
  });

  it('a file field without a file says File not selected; with one, its name and size', async () => {
    await renderField({ key: 'cover', label: 'Cover', type: 'file' }, {});
    expect(bodyText()).toBe('File not selected');
  });

  it('a file shows its name and size', async () => {
    await renderField(
      { key: 'cover', label: 'Cover', type: 'file' },
      {
        cover: {
          name: 'a.pdf',
          size: 2048,
          contentType: 'application/pdf',
          storageName: 's',
          publicUrl: 'u',
        },
      },
      { readOnly: true },
    );
    expect(bodyText()).toContain('a.pdf');
    expect(bodyText()).toContain('2.00 KB · application/pdf');
  });

  it('an address shows its lines', async () => {
    await renderField(
      { key: 'location', label: 'Location', type: 'address' },
      { location: { streetNumber: '1', streetAddress: 'Main St', city: 'Springfield', country: 'US' } },
      { readOnly: true },
    );
    expect(bodyText()).toBe('1 Main StSpringfieldUnited States');
  });

  it('a service connection shows who it is connected as', async () => {
    await renderField(
      { key: 'connection', label: 'Connection', type: 'service-connection' },
      { connection: { provider: 'facebook', profile: { name: 'Acme' } } },
      { readOnly: true },
    );
    expect(bodyText()).toContain('Connected as Acme');
  });

  it('criteria show their groups and rules', async () => {
    await renderField(
      { key: 'criteria', label: 'Criteria', type: 'criteria' },
      { criteria: { label: '1', predicate: 'or', children: [{ type: 'audience', predicate: {} }] } },
      { readOnly: true },
    );
    expect(bodyText()).toContain('or');
    expect(bodyText()).toContain('Audience not selected');
  });

  it('an email template shows its markup', async () => {
    await renderField(
      { key: 'template', label: 'Template', type: 'email-template' },
      { template: { combinedMarkup: '<h1>Welcome</h1>' } },
      { readOnly: true },
    );
    expect(bodyText()).toBe('Welcome');
  });
});
