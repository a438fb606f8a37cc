import { SCIM_SCHEMAS } from '@shared/api/scim';

/** What the SCIM service tells a provider about itself (RFC 7644 §4, RFC 7643 §5–7). */

interface AttributeSpec {
  name: string;
  type?: 'string' | 'boolean' | 'complex' | 'reference' | 'dateTime';
  multiValued?: boolean;
  required?: boolean;
  caseExact?: boolean;
  mutability?: 'readOnly' | 'readWrite' | 'immutable' | 'writeOnly';
  uniqueness?: 'none' | 'server' | 'global';
  subAttributes?: AttributeSpec[];
}

const attribute = (spec: AttributeSpec): Record<string, unknown> => ({
  name: spec.name,
  type: spec.type ?? 'string',
  multiValued: spec.multiValued ?? false,
  description: spec.name,
  required: spec.required ?? false,
  caseExact: spec.caseExact ?? false,
  mutability: spec.mutability ?? 'readWrite',
  returned: 'default',
  uniqueness: spec.uniqueness ?? 'none',
  ...(spec.subAttributes ? { subAttributes: spec.subAttributes.map(attribute) } : {}),
});

const multiValued = (name: string, extra: AttributeSpec[] = []) =>
  attribute({
    name,
    type: 'complex',
    multiValued: true,
    subAttributes: [
      { name: 'value' },
      { name: 'display' },
      { name: 'type' },
      { name: 'primary', type: 'boolean' },
      ...extra,
    ],
  });

const USER_SCHEMA = {
  id: SCIM_SCHEMAS.user,
  name: 'User',
  description: 'A member of the workspace',
  attributes: [
    attribute({ name: 'userName', required: true, uniqueness: 'server' }),
    attribute({
      name: 'name',
      type: 'complex',
      subAttributes: [
        { name: 'formatted' },
        { name: 'familyName' },
        { name: 'givenName' },
        { name: 'middleName' },
        { name: 'honorificPrefix' },
        { name: 'honorificSuffix' },
      ],
    }),
    attribute({ name: 'displayName' }),
    attribute({ name: 'nickName' }),
    attribute({ name: 'title' }),
    attribute({ name: 'userType' }),
    attribute({ name: 'preferredLanguage' }),
    attribute({ name: 'locale' }),
    attribute({ name: 'timezone' }),
    attribute({ name: 'active', type: 'boolean' }),
    multiValued('emails'),
    multiValued('phoneNumbers'),
    attribute({
      name: 'groups',
      type: 'complex',
      multiValued: true,
      mutability: 'readOnly',
      subAttributes: [
        { name: 'value', mutability: 'readOnly' },
        { name: '$ref', type: 'reference', mutability: 'readOnly' },
        { name: 'display', mutability: 'readOnly' },
      ],
    }),
  ],
};

const ENTERPRISE_USER_SCHEMA = {
  id: SCIM_SCHEMAS.enterpriseUser,
  name: 'EnterpriseUser',
  description: 'Enterprise user',
  attributes: ['employeeNumber', 'costCenter', 'organization', 'division', 'department'].map((name) =>
    attribute({ name }),
  ),
};

const GROUP_SCHEMA = {
  id: SCIM_SCHEMAS.group,
  name: 'Group',
  description: 'A group of the identity provider; the workspace’s single sign-on rules map it to roles',
  attributes: [
    attribute({ name: 'displayName', required: true, uniqueness: 'server' }),
    attribute({
      name: 'members',
      type: 'complex',
      multiValued: true,
      subAttributes: [
        { name: 'value', mutability: 'immutable' },
        { name: '$ref', type: 'reference', mutability: 'immutable' },
        { name: 'display', mutability: 'readOnly' },
      ],
    }),
  ],
};

const withMeta = (schema: { id: string }, base: string) => ({
  schemas: [SCIM_SCHEMAS.schema],
  ...schema,
  meta: { resourceType: 'Schema', location: `${base}/Schemas/${schema.id}` },
});

export const schemasOf = (base: string) =>
  [USER_SCHEMA, ENTERPRISE_USER_SCHEMA, GROUP_SCHEMA].map((schema) => withMeta(schema, base));

export const resourceTypesOf = (base: string) => [
  {
    schemas: [SCIM_SCHEMAS.resourceType],
    id: 'User',
    name: 'User',
    endpoint: '/Users',
    description: 'Members of the workspace',
    schema: SCIM_SCHEMAS.user,
    schemaExtensions: [{ schema: SCIM_SCHEMAS.enterpriseUser, required: false }],
    meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/User` },
  },
  {
    schemas: [SCIM_SCHEMAS.resourceType],
    id: 'Group',
    name: 'Group',
    endpoint: '/Groups',
    description: 'Groups, mapped to roles by the single sign-on rules',
    schema: SCIM_SCHEMAS.group,
    meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/Group` },
  },
];

export const serviceProviderConfigOf = (base: string, documentationUri: string) => ({
  schemas: [SCIM_SCHEMAS.serviceProviderConfig],
  documentationUri,
  patch: { supported: true },
  bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
  filter: { supported: true, maxResults: 1000 },
  changePassword: { supported: false },
  sort: { supported: false },
  etag: { supported: false },
  authenticationSchemes: [
    {
      type: 'oauthbearertoken',
      name: 'Bearer token',
      description: 'A SCIM token of the workspace, made in Settings › Single sign-on',
      primary: true,
    },
  ],
  meta: { resourceType: 'ServiceProviderConfig', location: `${base}/ServiceProviderConfig` },
});
