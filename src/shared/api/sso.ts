import { z } from 'zod';

/** The HTTP contract of single sign-on: a workspace's OpenID Connect connection and its role rules. */

export const SSO_MESSAGES = {
  notConfigured: 'Single sign-on is not set up for this workspace',
  insecureIssuer: 'issuer: Use an https URL (http is allowed only for 127.0.0.1 and localhost)',
  secretRequired: 'clientSecret: Enter the client secret',
  discoveryFailed: (reason: string) =>
    `issuer: The provider could not be reached or answered badly: ${reason}`,
  domainTaken: (domain: string) => `domains: ${domain} is owned by another workspace`,
  passwordRefused:
    'Your organisation signs you in with single sign-on. Use “Continue with single sign-on” instead.',
  badState: 'The sign-in took too long or was started in another browser. Please sign in again.',
  signInFailed: 'The identity provider did not confirm who you are. Please sign in again.',
  emailTaken:
    'An account with this email already exists. Sign in to it with your password, then link single sign-on from the Single sign-on settings.',
  noEmail: 'The identity provider did not send a verified email address',
  linkedElsewhere: 'This identity is already linked to another account',
  samlRefused:
    'The identity provider’s assertion was not valid, signed or meant for this workspace. Please sign in again.',
  samlReplayed: 'This sign-in was used already. Please sign in again.',
  notSaml: 'This workspace does not sign in with SAML',
  samlNoLink:
    'Linking an account is available with OpenID Connect; sign in with SAML from the sign-in page instead',
  noWorkspaceForEmail: 'No workspace signs in this email address with single sign-on',
} as const;

/** Lower-case domain names such as `example.com`. */
const Domain = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(
    /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
    'Enter a domain such as example.com',
  );

export const RoleRule = z.object({
  claim: z
    .string()
    .trim()
    .min(1, 'Enter the claim')
    .max(100)
    .describe('The ID token or userinfo claim to read, usually `groups`'),
  value: z
    .string()
    .trim()
    .min(1, 'Enter the value')
    .max(200)
    .describe('The value (or one of the values) it must hold'),
  roles: z
    .array(z.string().max(64))
    .max(50)
    .describe('Workspace roles granted while the claim holds the value'),
  isWorkspaceManager: z.boolean().default(false).describe('Whether the rule grants manager rights'),
});
export type RoleRule = z.infer<typeof RoleRule>;

/** Issuer URLs must be https, except on loopback addresses (tests and local set-ups). */
function isAllowedIssuer(issuer: string): boolean {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return false;
  }
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

const Issuer = z
  .string()
  .trim()
  .max(500)
  .refine(isAllowedIssuer, 'Use an https URL (http is allowed only for 127.0.0.1 and localhost)');

export const SsoConnectionBody = z.object({
  issuer: Issuer.describe('The OpenID provider’s issuer URL (its /.well-known/openid-configuration is read)'),
  clientId: z.string().trim().min(1, 'Enter the client id').max(300),
  clientSecret: z.string().max(500).optional().describe('Sealed at rest; leave out to keep the one saved'),
  domains: z.array(Domain).max(50).describe('Email domains the workspace owns'),
  allowPassword: z
    .boolean()
    .describe('Whether people with an address at these domains may still sign in with a password'),
  roleRules: z.array(RoleRule).max(100).default([]),
});
export type SsoConnectionBody = z.input<typeof SsoConnectionBody>;
export type SsoConnectionInput = z.output<typeof SsoConnectionBody>;

export const SsoKind = z.enum(['oidc', 'saml']);
export type SsoKind = z.infer<typeof SsoKind>;

const PEM_CERTIFICATE = /^-----BEGIN CERTIFICATE-----\s+[A-Za-z0-9+/=\s]{64,}-----END CERTIFICATE-----$/;

/** A certificate as PEM, or its base64 body alone as IdP metadata shows it. */
const Certificate = z
  .string()
  .trim()
  .max(20_000)
  .transform((value) =>
    value.startsWith('-----') ? value : `-----BEGIN CERTIFICATE-----\n${value}\n-----END CERTIFICATE-----`,
  )
  .pipe(z.string().regex(PEM_CERTIFICATE, 'Paste the identity provider’s signing certificate (PEM)'));

/** What a SAML connection keeps beside the identity provider's entity id. */
export const SamlSettings = z.object({
  entryPoint: Issuer.describe('The identity provider’s single sign-on URL (HTTP-Redirect binding)'),
  idpCert: Certificate.describe(
    'The identity provider’s signing certificate: only assertions it signed are taken',
  ),
  audience: z
    .string()
    .trim()
    .max(500)
    .default('')
    .describe('The audience assertions must name; empty for our entity id'),
});
export type SamlSettings = z.output<typeof SamlSettings>;

export const SamlConnectionBody = SamlSettings.extend({
  idpIssuer: z
    .string()
    .trim()
    .min(1, 'Enter the identity provider’s entity id')
    .max(500)
    .describe('The identity provider’s entity id (the Issuer of its assertions)'),
  domains: z.array(Domain).max(50).describe('Email domains the workspace owns'),
  allowPassword: z
    .boolean()
    .describe('Whether people with an address at these domains may still sign in with a password'),
  roleRules: z
    .array(RoleRule)
    .max(100)
    .default([])
    .describe('Rules from assertion attributes (such as a groups attribute) to roles'),
});
export type SamlConnectionBody = z.input<typeof SamlConnectionBody>;
export type SamlConnectionInput = z.output<typeof SamlConnectionBody>;

export const SsoTestBody = z.object({ issuer: Issuer });
export const SsoTestResult = z.object({
  ok: z.literal(true),
  issuer: z.string(),
  authorizationEndpoint: z.string(),
});

export const SsoConnection = z.object({
  kind: SsoKind,
  issuer: z.string().describe('The OpenID issuer, or the SAML identity provider’s entity id'),
  clientId: z.string(),
  hasClientSecret: z.boolean(),
  domains: z.array(z.string()),
  allowPassword: z.boolean(),
  roleRules: z.array(RoleRule),
  saml: z.object({ entryPoint: z.string(), idpCert: z.string(), audience: z.string() }).nullable(),
  updatedAt: z.string(),
  updatedBy: z.string(),
});
export type SsoConnection = z.infer<typeof SsoConnection>;

export const SsoSettings = z.object({
  redirectUri: z.string().describe('The redirect URI to register at the provider'),
  saml: z
    .object({
      entityId: z.string().describe('Our entity id (and the default audience)'),
      acsUrl: z.string().describe('Our assertion consumer service URL (HTTP-POST binding)'),
      metadataUrl: z.string(),
      metadata: z
        .string()
        .describe('Our service provider metadata XML, to register at the identity provider'),
    })
    .describe('What to register at a SAML identity provider'),
  connection: SsoConnection.nullable(),
});
export type SsoSettings = z.infer<typeof SsoSettings>;

export const SsoDiscoverQuery = z.object({ email: z.string().trim().toLowerCase().max(320) });
export const SsoDiscovery = z.object({
  workspaceId: z.string().nullable(),
  isPasswordAllowed: z.boolean(),
});

export const SsoStartQuery = z.object({
  returnTo: z.string().max(2000).optional(),
  link: z.enum(['1']).optional().describe('Link the identity to the signed-in account'),
});

export const SsoCallbackQuery = z.object({
  code: z.string().max(4000).optional(),
  state: z.string().max(500).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(1000).optional(),
  iss: z.string().max(500).optional(),
});

/** The path of the provider's redirect back to Marquee. */
export const ssoCallbackPath = (workspaceId: string) =>
  `/api/v1/auth/sso/${encodeURIComponent(workspaceId)}/callback`;
export const ssoStartPath = (workspaceId: string) =>
  `/api/v1/auth/sso/${encodeURIComponent(workspaceId)}/start`;

/** SAML: our metadata, and the identity provider's HTTP-POST back to us. */
export const samlMetadataPath = (workspaceId: string) =>
  `/api/v1/auth/sso/${encodeURIComponent(workspaceId)}/saml/metadata`;
export const samlAcsPath = (workspaceId: string) =>
  `/api/v1/auth/sso/${encodeURIComponent(workspaceId)}/saml/acs`;

export const SamlAcsBody = z.object({
  SAMLResponse: z.string().min(1).max(500_000),
  RelayState: z.string().max(4000).optional(),
});
