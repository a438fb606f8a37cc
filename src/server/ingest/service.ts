import { INGEST_MESSAGES, SERVER_KEY_PREFIX, WRITE_KEY_PREFIX, type IngestAnswer } from '@shared/api/ingest';
import type { AppContext } from '../context';
import type { UndeclaredName } from '../customers/customer-rows';
import { loadDefinitions, type CustomerDefinitions } from '../customers/definitions';
import { eventKeys as storedEventKeys } from '../customers/profiles-repository';
import * as customers from '../customers/repository';
import { suppressedAmong } from '../customers/suppression-repository';
import { suppressedMessage } from '../customers/suppression-service';
import { forbidden, rateLimited, unauthorized } from '../http/errors';
import type { Tx } from '../db/client';
import { journal } from '../journal/journal';
import { hashToken } from '../lib/ids';
import { ingestCacheOf } from './cache';
import { parseMessage, type MessageType, type Parsed } from './messages';
import { withoutProtectedChanges, type Identified, type Refusal } from './protected-attributes';
import * as repo from './repository';
import { nameId, overTheLimit, tallyUndeclared } from './undeclared';
import { noteUndeclared, undeclaredNames } from './undeclared-repository';

/**
 * The ingest key of a request, or 401: a write key from `Authorization: Bearer mqw_…` or
 * `?writeKey=mqw_…`, a server key from `Authorization: Bearer mqs_…` only.
 */
export async function authenticateWriteKey(
  ctx: AppContext,
  authorization: string | undefined,
  queryKey: string | undefined,
): Promise<repo.WriteKeyRow> {
  const inHeader = authorization?.startsWith('Bearer ') === true;
  const token = inHeader ? authorization!.slice(7).trim() : (queryKey?.trim() ?? '');
  if (!token) throw unauthorized(INGEST_MESSAGES.missingKey);
  if (!(token.startsWith(WRITE_KEY_PREFIX) || token.startsWith(SERVER_KEY_PREFIX)) || token.length > 200)
    throw unauthorized(INGEST_MESSAGES.invalidKey);
  const hash = hashToken(token);
  const key = await ingestCacheOf(ctx.db).writeKey(hash, () => repo.findWriteKeyByHash(ctx.db, hash));
  if (!key) throw unauthorized(INGEST_MESSAGES.invalidKey);
  if (key.kind === 'server' && !inHeader) throw unauthorized(INGEST_MESSAGES.serverKeyInQuery);
  noteUse(ctx, key);
  return key;
}

const lastNoted = new WeakMap<repo.WriteKeyRow, number>();
/** Records lastUsedAt at most once a minute per key and process, without holding up the answer. */
function noteUse(ctx: AppContext, key: repo.WriteKeyRow) {
  const now = Date.now();
  if ((lastNoted.get(key) ?? 0) > now - 60_000) return;
  lastNoted.set(key, now);
  repo
    .touchWriteKey(ctx.db, key.workspaceId, key.id, new Date(now))
    .catch((err: unknown) => ctx.log.warn({ err }, 'could not record the use of a write key'));
}

/** Whether pages of `origin` may send with the key: any origin when a write key names none; never a server key. */
export const originAllowed = (key: repo.WriteKeyRow, origin: string) =>
  key.kind === 'write' && (key.origins.length === 0 || key.origins.includes(origin));

/**
 * A browser's request must come from one of a write key's origins (403 otherwise), and never carries
 * a server key; requests without an Origin header come from servers and apps, which the origins do
 * not limit.
 */
export function checkOrigin(key: repo.WriteKeyRow, origin: string | undefined) {
  if (origin === undefined) return;
  if (key.kind === 'server') throw forbidden(INGEST_MESSAGES.serverKeyFromBrowser);
  if (!originAllowed(key, origin)) throw forbidden(INGEST_MESSAGES.originNotAllowed(origin));
}

/** Where a request comes from, as its audit row names it. */
interface Sender {
  key: repo.WriteKeyRow;
  address: string;
}

/**
 * Writes the messages of one request: each one read by the workspace's definitions (a message that
 * does not fit is rejected with its reason, the others kept), then, in one transaction journaled by
 * one audit row, the events (their profiles created when new), the identified profiles' attributes,
 * the anonymous visitors' events moved to the profiles they turned out to be, and the tally of what
 * the definitions do not declare. Undeclared events, properties and attributes are kept unless the key
 * is strict, up to the workspace's bound on their names (`overTheLimit`). Events are written before the
 * identities are merged, so a visitor's events sent in the same batch move too. A write key does not
 * change protected attributes (`withoutProtectedChanges`): the answer names those refused.
 */
export async function ingest(
  ctx: AppContext,
  sender: Sender,
  messages: unknown[],
  expected?: MessageType,
): Promise<IngestAnswer> {
  const { key } = sender;
  const workspaceId = key.workspaceId;
  const cache = ingestCacheOf(ctx.db);
  const retryAfter = cache.take(key.id, messages.length, ctx.config.ingestRateLimit);
  if (retryAfter !== undefined) throw rateLimited(INGEST_MESSAGES.rateLimited, retryAfter);
  const defs = await cache.definitionsOf(workspaceId, () => loadDefinitions(ctx.db, workspaceId));
  const now = new Date();
  const reading = {
    defs,
    workspaceId,
    now: now.toISOString(),
    undeclared: key.strict ? ('refuse' as const) : ('keep' as const),
  };
  const parsed = await withinUndeclaredLimits(
    ctx,
    defs,
    workspaceId,
    messages.map((message) => parseMessage(message, expected, reading)),
  );
  // An erased customer kept on the suppression list stays out, as it does of imports.
  const named = parsed.flatMap((message) => ('error' in message ? [] : [profileOf(message)]));
  const suppressed = await suppressedAmong(ctx.db, workspaceId, [...new Set(named)]);
  const events: customers.EventTuple[] = [];
  const known = new Set<string>();
  const identified: Identified[] = [];
  const undeclared: UndeclaredName[][] = [];
  const errors: IngestAnswer['errors'] = [];
  parsed.forEach((message, index) => {
    if ('error' in message) errors.push({ index, message: message.error });
    else if (suppressed.has(profileOf(message)))
      errors.push({ index, message: suppressedMessage(profileOf(message)) });
    else {
      if (message.undeclared) undeclared.push(message.undeclared);
      if (message.type === 'identify') identified.push({ ...message, index });
      else {
        events.push(message.row);
        if (message.profileId) known.add(message.profileId);
      }
    }
  });
  const accepted = events.length + identified.length;
  // A server key may change them: it is a secret of the workspace's own servers.
  const protectedKeys = key.kind === 'write' ? [...defs.protectedKeys].sort() : [];
  const tallies = tallyUndeclared(undeclared);
  let refusals: Refusal[] = [];
  if (accepted > 0) {
    await ctx.db.transaction(async (tx) => {
      await customers.insertEvents(tx, workspaceId, events);
      await repo.ensureProfiles(tx, workspaceId, [...known]);
      let moved = 0;
      if (identified.length) {
        const checked = await withoutProtectedChanges(tx, workspaceId, identified, protectedKeys);
        refusals = checked.refusals;
        await customers.upsertProfiles(tx, workspaceId, attributesByProfile(checked.allowed), protectedKeys);
        moved = await mergeVisitors(tx, workspaceId, identified);
      }
      await noteUndeclared(tx, workspaceId, tallies, now);
      // One row per request, never one per event.
      await journal(tx, {
        audit: [
          {
            workspaceId,
            user: { id: `write-key:${key.id}`, name: key.name, address: sender.address },
            action: 'customer-events.ingested',
            targetType: 'write-key',
            targetId: key.id,
            label: key.name,
            detail: {
              events: events.length,
              identified: identified.length,
              moved,
              rejected: errors.length,
              ...(refusals.length ? { refused: refusedKeys(refusals) } : {}),
              ...(tallies.length ? { undeclared: new Set(tallies.map(nameId)).size } : {}),
            },
          },
        ],
      });
    });
    cache.keptUndeclared(workspaceId, tallies.map(nameId));
  }
  return {
    accepted,
    rejected: errors.length,
    errors,
    ...(refusals.length ? { refused: refusedKeys(refusals), refusals } : {}),
  };
}

/**
 * The messages with those that would pass the workspace's bound on undeclared names turned into their
 * refusal; the names it kept are read only for a request that brings some.
 */
async function withinUndeclaredLimits(
  ctx: AppContext,
  defs: CustomerDefinitions,
  workspaceId: string,
  parsed: Parsed[],
): Promise<Parsed[]> {
  const bringing = (message: Parsed) => ('error' in message ? undefined : message.undeclared);
  if (!parsed.some(bringing)) return parsed;
  const kept = await ingestCacheOf(ctx.db).undeclaredOf(workspaceId, () =>
    undeclaredNames(ctx.db, workspaceId),
  );
  const over = overTheLimit(parsed.map(bringing), kept, defs);
  return parsed.map((message, index) => (over[index] ? { error: over[index] } : message));
}

/**
 * Moves each identified visitor's events to its profile, over every event key the workspace has
 * events of (declared or not), read once. Answers how many events moved.
 */
async function mergeVisitors(tx: Tx, workspaceId: string, identified: Identified[]) {
  const merging = identified.filter((message) => message.anonymousId);
  if (!merging.length) return 0;
  const eventKeys = await storedEventKeys(tx, workspaceId);
  let moved = 0;
  for (const { anonymousId, profileId } of merging) {
    moved += await repo.moveEvents(tx, workspaceId, anonymousId!, profileId, eventKeys);
  }
  return moved;
}

const refusedKeys = (refusals: Refusal[]) => [...new Set(refusals.flatMap((r) => r.attributes))].sort();

/** The profile a message writes to (an anonymous visitor's own id for its events). */
const profileOf = (message: Exclude<Parsed, { error: string }>) =>
  message.type === 'identify' ? message.profileId : message.row[0];

/** Each identified profile once, its attributes merged in the order they were sent. */
function attributesByProfile(identified: { profileId: string; attributes: Record<string, unknown> }[]) {
  const byProfile = new Map<string, Record<string, unknown>>();
  for (const { profileId, attributes } of identified)
    byProfile.set(profileId, { ...byProfile.get(profileId), ...attributes });
  return [...byProfile];
}
