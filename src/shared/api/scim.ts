import { z } from 'zod';

/**
 * The HTTP contract of provisioning: a workspace's SCIM tokens (`/api/v1/workspaces/{ws}/scim-tokens`)
 * and the SCIM 2.0 service (RFC 7643/7644) its identity provider calls at `/scim/v2/{ws}/…`.
 */

export const SCIM_TOKEN_PREFIX = 'mqscim_';
export const SCIM_PREFIX = '/scim/v2';
export const SCIM_CONTENT_TYPE = 'application/scim+json';

export const SCIM_SCHEMAS = {
  user: 'urn:ietf:params:scim:schemas:core:2.0:User',
  enterpriseUser: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
  group: 'urn:ietf:params:scim:schemas:core:2.0:Group',
  listResponse: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  patchOp: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  error: 'urn:ietf:params:scim:api:messages:2.0:Error',
  serviceProviderConfig: 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig',
  resourceType: 'urn:ietf:params:scim:schemas:core:2.0:ResourceType',
  schema: 'urn:ietf:params:scim:schemas:core:2.0:Schema',
} as const;

export const SCIM_MESSAGES = {
  missingToken: 'A SCIM token is required: send Authorization: Bearer mqscim_…',
  invalidToken: 'This SCIM token is not valid or was revoked',
  tokenNotFound: 'SCIM token not found',
  userNotFound: 'User not found',
  groupNotFound: 'Group not found',
  userNameTaken: 'A user with this userName already exists',
  groupNameTaken: 'A group with this displayName already exists',
  userNameRequired: 'userName is required',
  displayNameRequired: 'displayName is required',
  lastManager: 'This user is the last active manager of the workspace and stays active',
} as const;

/** The base URL an identity provider is given: its Users and Groups endpoints sit under it. */
export const scimBasePath = (workspaceId: string) => `${SCIM_PREFIX}/${encodeURIComponent(workspaceId)}`;

export const CreateScimTokenBody = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, { error: 'Name is required' })
      .max(100, { error: 'Name is at most 100 characters' })
      .describe('The identity provider that provisions with it, e.g. "Entra ID"; audit rows name it'),
  })
  .strict();
export type CreateScimTokenBody = z.input<typeof CreateScimTokenBody>;

export const CreatedScimToken = z.object({
  id: z.string(),
  token: z
    .string()
    .describe('The secret, shown this once: the identity provider sends it as Bearer mqscim_…'),
});
export type CreatedScimToken = z.infer<typeof CreatedScimToken>;

export const ScimTokenSummary = z.object({
  id: z.string(),
  name: z.string(),
  createdBy: z.string().describe('Name of the member who made the token'),
  createdById: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable().describe('Last SCIM request with the token (to the minute)'),
});
export type ScimTokenSummary = z.infer<typeof ScimTokenSummary>;

export const ScimTokenList = z.object({
  baseUrl: z.string().describe('The SCIM base URL to register at the identity provider'),
  tokens: z.array(ScimTokenSummary),
});
export type ScimTokenList = z.infer<typeof ScimTokenList>;

export const ScimTokenId = z
  .string()
  .regex(/^[A-Za-z0-9]{1,40}$/, { error: SCIM_MESSAGES.tokenNotFound })
  .describe('SCIM token id');
