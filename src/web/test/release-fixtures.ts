import type { Release, ReleaseSummary } from '@shared/api/releases';

/** A draft release to Live with no entries, as the API answers it, changed by `overrides`. */
export const releaseSummary = (overrides: Partial<ReleaseSummary> = {}): ReleaseSummary => ({
  id: 'r1',
  name: 'Launch',
  description: '',
  stage: 'live',
  publishAt: null,
  publishAtTz: null,
  state: 'draft',
  entryCount: 0,
  createdAt: '2026-11-01T10:00:00.000Z',
  createdBy: 'u1',
  updatedAt: '2026-11-01T10:00:00.000Z',
  updatedBy: 'u1',
  publishedAt: null,
  publishedBy: null,
  scheduleStatus: null,
  scheduledBy: null,
  lastError: null,
  ranAt: null,
  ...overrides,
});

/** That release as read with its entries (none) by a member who may change it. */
export const releaseAnswer = (overrides: Partial<Release> = {}): Release => ({
  ...releaseSummary(),
  entries: [],
  canPublish: false,
  canChange: true,
  ...overrides,
});
