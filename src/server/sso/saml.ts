import {
  generateServiceProviderMetadata,
  SAML,
  ValidateInResponseTo,
  type Profile,
} from '@node-saml/node-saml';
import { SSO_MESSAGES, type SamlSettings } from '@shared/api/sso';
import { badRequest } from '../http/errors';

/** SAML 2.0 through @node-saml/node-saml: our service provider's side of one workspace's connection. */

const NAME_ID_UNSPECIFIED = 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified';
const NAME_ID_EMAIL = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
/** Clocks of the identity provider and ours may differ a little. */
const CLOCK_SKEW_MS = 30_000;

export interface ServiceProvider {
  entityId: string;
  acsUrl: string;
}

export interface SamlConnection {
  /** The identity provider's entity id: the Issuer its assertions must name. */
  issuer: string;
  saml: SamlSettings;
}

function clientOf(connection: SamlConnection, sp: ServiceProvider, requestId?: string) {
  return new SAML({
    entryPoint: connection.saml.entryPoint,
    issuer: sp.entityId,
    callbackUrl: sp.acsUrl,
    idpCert: connection.saml.idpCert,
    idpIssuer: connection.issuer,
    audience: connection.saml.audience || sp.entityId,
    // The assertion itself must carry the pinned certificate's signature; a signed envelope alone is not enough.
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    // Checked against the sealed relay state instead of node-saml's per-process cache.
    validateInResponseTo: ValidateInResponseTo.never,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    identifierFormat: NAME_ID_UNSPECIFIED,
    disableRequestedAuthnContext: true,
    ...(requestId ? { generateUniqueId: () => requestId } : {}),
  });
}

/** Our metadata for the identity provider: entity id, ACS URL (HTTP-POST) and that assertions must be signed. */
export const serviceProviderMetadata = (sp: ServiceProvider) =>
  generateServiceProviderMetadata({
    issuer: sp.entityId,
    callbackUrl: sp.acsUrl,
    identifierFormat: NAME_ID_UNSPECIFIED,
    wantAssertionsSigned: true,
  });

/** The identity provider's URL with an AuthnRequest of this id (HTTP-Redirect binding). */
export async function samlAuthorizeStart(
  connection: SamlConnection,
  sp: ServiceProvider,
  relayState: string,
  requestId: string,
) {
  return {
    location: await clientOf(connection, sp, requestId).getAuthorizeUrlAsync(relayState, undefined, {}),
  };
}

export interface CheckedAssertion {
  profile: Profile;
  /** The assertion's ID, stored until it expires so it signs in once. */
  assertionId: string;
  expiresAt: Date;
  email: string | undefined;
  name: string | undefined;
  /** The assertion's attributes, which the role rules read. */
  attributes: Record<string, unknown>;
}

const firstText = (value: unknown) =>
  typeof value === 'string'
    ? value
    : Array.isArray(value) && typeof value[0] === 'string'
      ? value[0]
      : undefined;

/**
 * Checks a posted SAMLResponse: the assertion signed with the pinned certificate, naming the configured
 * issuer, for our audience, within its validity window, answering our request. Anything else is refused.
 */
export async function checkSamlResponse(
  connection: SamlConnection,
  sp: ServiceProvider,
  samlResponse: string,
  requestId: string,
): Promise<CheckedAssertion> {
  let profile: Profile | null;
  try {
    ({ profile } = await clientOf(connection, sp).validatePostResponseAsync({ SAMLResponse: samlResponse }));
  } catch (err) {
    throw Object.assign(badRequest(SSO_MESSAGES.samlRefused), { cause: err });
  }
  const assertion = profile?.getAssertion?.() as
    { Assertion?: { $?: { ID?: string }; Conditions?: { $?: { NotOnOrAfter?: string } }[] } } | undefined;
  const assertionId = assertion?.Assertion?.$?.ID;
  const notOnOrAfter = Date.parse(assertion?.Assertion?.Conditions?.[0]?.$?.NotOnOrAfter ?? '');
  if (
    !profile?.nameID ||
    profile.issuer !== connection.issuer ||
    !assertionId ||
    !Number.isFinite(notOnOrAfter) ||
    profile.inResponseTo !== requestId
  )
    throw badRequest(SSO_MESSAGES.samlRefused);
  const attributes = (profile.attributes ?? {}) as Record<string, unknown>;
  const email =
    firstText(profile.email) ??
    firstText(attributes.email) ??
    (profile.nameIDFormat === NAME_ID_EMAIL ? profile.nameID : undefined);
  return {
    profile,
    assertionId,
    expiresAt: new Date(notOnOrAfter + CLOCK_SKEW_MS),
    email,
    name: firstText(attributes.displayName) ?? firstText(attributes.name),
    attributes,
  };
}
