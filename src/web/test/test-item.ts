import type { Item } from '@shared/api/items';

/** A stored item as the API answers it: version 1, written by Ada, editable and publishable. */
export const testItem = (schema: string, id: string, data: Record<string, unknown>): Item => ({
  id,
  schema,
  data,
  _references: {},
  version: 1,
  lastWrittenBy: 'u1',
  lastWrittenByName: 'Ada',
  lastWrittenAt: '2026-01-01T00:00:00.000Z',
  createdAt: '2026-01-01T00:00:00.000Z',
  createdBy: 'u1',
  hasErrors: false,
  variation: null,
  publishStatus: {},
  published: {},
  fullyApproved: true,
  remainingApprovals: [],
  approvedBy: [],
  abilities: { canEdit: true, canPublish: true, canApprove: false, canDelete: true },
});
