import type { Release, ReleaseEntry } from '@shared/api/releases';
import { releaseAnswer } from '@web/test/release-fixtures';
import { ApiError } from '@web/lib/api-client';
import {
  changedSinceOf,
  entryPublishStatus,
  entryVersionLabel,
  publishAtErrorOf,
  publishRefusals,
  releaseTimeLabel,
  scheduleLabel,
} from './release-labels';

const entry = (overrides: Partial<ReleaseEntry> = {}): ReleaseEntry => ({
  schema: 'copy',
  itemId: 'i1',
  label: 'Spring sale',
  action: 'publish',
  version: 1,
  currentVersion: 1,
  hasNewerVersion: false,
  fullyApproved: true,
  canPublish: true,
  stageVersion: null,
  previousVersion: null,
  blockers: [],
  addedBy: 'u1',
  addedByName: 'Ada',
  ...overrides,
});

const release = (entries: ReleaseEntry[], overrides: Partial<Release> = {}): Release =>
  releaseAnswer({
    entryCount: entries.length,
    entries,
    canPublish: entries.every((e) => e.blockers.length === 0),
    ...overrides,
  });

describe('publishRefusals', () => {
  it('is empty when every entry is ready and the caller may publish', () => {
    expect(publishRefusals(release([entry(), entry({ itemId: 'i2' })]), true)).toEqual([]);
  });

  it('names each blocked entry with its blockers, by label or else by id', () => {
    const refusals = publishRefusals(
      release([
        entry({ blockers: ['Waiting for: Legal'] }),
        entry({ itemId: 'i2' }),
        entry({ itemId: 'i3', label: null, blockers: ['No rights', 'Incomplete'] }),
      ]),
      true,
    );
    expect(refusals).toEqual([
      '2 of 3 entries are blocked:',
      'Spring sale: Waiting for: Legal',
      'i3: No rights; Incomplete',
    ]);
  });

  it('puts the release’s own state and the caller’s rights before the entries', () => {
    const blocked = release([entry({ blockers: ['Waiting for: Legal'] })]);
    expect(publishRefusals(blocked, false)).toEqual(['You do not have permission to publish any item type']);
    expect(publishRefusals({ ...blocked, state: 'published' }, true)[0]).toMatch(/is published/);
    expect(publishRefusals(release([]), true)).toEqual(['This release has no entries']);
    expect(publishRefusals(blocked, true)[0]).toBe('1 of 1 entry is blocked:');
  });
});

describe('entry labels', () => {
  it('reads the stage copy against the current version as the item chips do', () => {
    expect(entryPublishStatus({ stageVersion: null, currentVersion: 2 })).toBe('NOT_PUBLISHED');
    expect(entryPublishStatus({ stageVersion: 1, currentVersion: 2 })).toBe('MODIFIED');
    expect(entryPublishStatus({ stageVersion: 2, currentVersion: 2 })).toBe('CURRENT');
  });

  it('says which version goes out: the pinned one, or the latest at publish time', () => {
    expect(entryVersionLabel({ version: 3, currentVersion: 4 })).toBe('Version 3');
    expect(entryVersionLabel({ version: null, currentVersion: 4 })).toBe('Latest (version 4)');
    expect(entryVersionLabel({ version: null, currentVersion: null })).toBe('Latest');
  });

  it('shows the publish time in the zone it was chosen in, or when it went out', () => {
    const base = { publishedAt: null, state: 'draft' as const };
    expect(releaseTimeLabel({ ...base, publishAt: null, publishAtTz: null })).toBe('No time set');
    expect(
      releaseTimeLabel({ ...base, publishAt: '2027-09-01T07:00:00.000Z', publishAtTz: 'Europe/Paris' }),
    ).toBe('Wed Sep 1st, 2027 9:00 AM (Europe/Paris)');
  });
});

describe('scheduleLabel', () => {
  const scheduled = {
    publishAt: '2027-09-01T07:00:00.000Z',
    publishAtTz: 'Europe/Paris',
    scheduleStatus: 'pending' as const,
    ranAt: null,
  };

  it('says when and by whom a pending publish is scheduled, in its zone', () => {
    expect(scheduleLabel(scheduled, 'Ada')).toBe(
      'Scheduled for Wed Sep 1st, 2027 9:00 AM (Europe/Paris) by Ada',
    );
  });

  it('follows the publish as it runs, goes out or is refused', () => {
    expect(scheduleLabel({ ...scheduled, scheduleStatus: 'running' }, 'Ada')).toBe('Publishing…');
    const ranAt = '2027-09-01T07:00:02.000Z';
    expect(scheduleLabel({ ...scheduled, scheduleStatus: 'done', ranAt }, 'Ada')).toMatch(
      /^Published by schedule at Wed Sep 1st, 2027 \d+:00 AM$/,
    );
    expect(scheduleLabel({ ...scheduled, scheduleStatus: 'refused', ranAt }, 'Ada')).toMatch(
      /^Scheduled publish refused at /,
    );
    expect(scheduleLabel({ ...scheduled, scheduleStatus: null }, 'Ada')).toBeNull();
  });

  it('names who is to schedule it again once a change by someone else cleared it', () => {
    expect(scheduleLabel({ ...scheduled, scheduleStatus: 'cleared' }, 'Ada')).toBe(
      'Ada must schedule it again for Wed Sep 1st, 2027 9:00 AM (Europe/Paris)',
    );
  });
});

describe('server refusals', () => {
  it('reads the items a refused revert lists, ignoring anything malformed', () => {
    const changed = [{ schema: 'copy', itemId: 'i1', label: 'Spring sale' }];
    expect(changedSinceOf(new ApiError(409, 'conflict', 'Published again since…', { changed }))).toEqual(
      changed,
    );
    expect(changedSinceOf(new ApiError(409, 'conflict', 'x', { changed: [{ schema: 1 }] }))).toEqual([]);
    expect(changedSinceOf(new Error('plain'))).toEqual([]);
    expect(changedSinceOf(null)).toEqual([]);
  });

  it('takes the publish time refusal off its field prefix', () => {
    expect(publishAtErrorOf(new ApiError(400, 'bad_request', 'publishAt: Choose a time in the future'))).toBe(
      'Choose a time in the future',
    );
    expect(publishAtErrorOf(new ApiError(400, 'bad_request', 'name: Name is required'))).toBeNull();
    expect(publishAtErrorOf(undefined)).toBeNull();
  });
});
