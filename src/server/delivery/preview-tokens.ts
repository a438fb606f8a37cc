import crypto from 'node:crypto';
import { MESSAGES } from '@shared/api/errors';
import { PREVIEW_MESSAGES, PREVIEW_TOKEN_PREFIX } from '@shared/api/preview';
import type { AppContext } from '../context';
import { notFound, unauthorized } from '../http/errors';
import { findMembership, type WorkspaceRow } from '../workspaces/repository';
import { findPreviewToken, type PreviewTokenRow } from './repository';

/**
 * A preview token is `mqp_{workspace}.{id}.{signature}`: the HMAC of the workspace and the row's id
 * under the server's secret, so a token nobody made is refused without reading anything; the row says
 * the rest (its scope, expiry, revocation).
 */
const TOKEN = new RegExp(
  `^${PREVIEW_TOKEN_PREFIX}([a-z0-9][a-z0-9-]{0,62})\\.([A-Za-z0-9]{1,40})\\.([A-Za-z0-9_-]{43})$`,
);

const signatureOf = (secret: string, workspaceId: string, id: string) =>
  crypto.createHmac('sha256', `preview-token:${secret}`).update(`${workspaceId}\n${id}`).digest('base64url');

export const previewTokenOf = (secret: string, workspaceId: string, id: string) =>
  `${PREVIEW_TOKEN_PREFIX}${workspaceId}.${id}.${signatureOf(secret, workspaceId, id)}`;

/** Whether a bearer credential is meant as a preview token (a well-formed one or not). */
export const looksLikePreviewToken = (credential: string) => credential.startsWith(PREVIEW_TOKEN_PREFIX);

function parse(secret: string, token: string) {
  const match = TOKEN.exec(token);
  if (!match) return undefined;
  const [, workspaceId, id, signature] = match;
  const expected = Buffer.from(signatureOf(secret, workspaceId, id));
  const given = Buffer.from(signature);
  return expected.length === given.length && crypto.timingSafeEqual(expected, given)
    ? { workspaceId, id }
    : undefined;
}

/**
 * The row of a preview token used on a route of workspace `ws`: 401 for one that is malformed, unknown
 * (or its maker no longer an active member), revoked or expired; 404 for another workspace's, as for API keys.
 */
export async function authenticatePreviewToken(
  ctx: AppContext,
  token: string,
  ws: string,
  now = new Date(),
): Promise<{ token: PreviewTokenRow; workspace: WorkspaceRow }> {
  const named = parse(ctx.config.secret, token);
  if (!named) throw unauthorized(PREVIEW_MESSAGES.invalid);
  if (named.workspaceId !== ws) throw notFound(MESSAGES.workspaceNotFound);
  const row = await findPreviewToken(ctx.db, named.workspaceId, named.id);
  const maker = row && (await findMembership(ctx.db, row.workspaceId, row.createdBy));
  if (!row || !maker?.member.active) throw unauthorized(PREVIEW_MESSAGES.invalid);
  if (row.revokedAt) throw unauthorized(PREVIEW_MESSAGES.revoked);
  if (row.expiresAt <= now) throw unauthorized(PREVIEW_MESSAGES.expired);
  return { token: row, workspace: maker.workspace };
}
