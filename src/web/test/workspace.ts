import type { Workspace } from '@shared/api/workspaces';

/** The workspace `acme` as the API answers it to its manager, with `overrides` on top. */
export const makeWorkspace = (overrides: Partial<Workspace> = {}): Workspace => ({
  id: 'acme',
  name: 'Acme',
  basics: {
    name: 'Acme',
    domains: ['blogging'],
    stages: ['Live'],
    timezones: ['America/New_York'],
    dateFormat: 'relative',
  },
  roles: { admin: { name: 'Admin', canEdit: ['blog-post'], canPublish: ['blog-post'], mustApprove: [] } },
  oobe: { done: true },
  subscription: { plan: 'free' },
  version: 1,
  modelVersion: 0,
  __permissions: {
    canEdit: ['blog-post'],
    canPublish: ['blog-post'],
    canApprove: [],
    canManageWorkspace: true,
    roles: ['admin'],
    customerData: ['read', 'export', 'erase'],
  },
  ...overrides,
});
