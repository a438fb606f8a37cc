import type { Tx } from '../db/client';
import { lockAttributes } from './repository';

/** An identify message as the transaction writes it: its place in the request and the attributes to set. */
export interface Identified {
  index: number;
  profileId: string;
  attributes: Record<string, unknown>;
  anonymousId?: string;
}

export interface Refusal {
  index: number;
  attributes: string[];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * What a write key's identify messages may set: a protected attribute only on a profile that has no
 * value for it yet (or to the value it has), the first message of the request that sets it winning;
 * every other change of one is taken out of its message and refused. The profiles are locked while
 * this is decided; `upsertProfiles` keeps stored values of these keys as well, for a profile two
 * requests create at once.
 */
export async function withoutProtectedChanges(
  tx: Tx,
  workspaceId: string,
  identified: Identified[],
  protectedKeys: readonly string[],
): Promise<{ allowed: Identified[]; refusals: Refusal[] }> {
  const touches = (message: Identified) =>
    protectedKeys.some((key) => Object.hasOwn(message.attributes, key));
  const named = [...new Set(identified.filter(touches).map((message) => message.profileId))];
  if (!named.length) return { allowed: identified, refusals: [] };
  const stored = await lockAttributes(tx, workspaceId, named, protectedKeys);
  const refusals: Refusal[] = [];
  const allowed = identified.map((message) => {
    if (!touches(message)) return message;
    const held = stored.get(message.profileId) ?? {};
    stored.set(message.profileId, held);
    const attributes = { ...message.attributes };
    const refused: string[] = [];
    for (const key of protectedKeys) {
      if (!Object.hasOwn(attributes, key)) continue;
      if (!Object.hasOwn(held, key)) held[key] = attributes[key];
      else if (!same(held[key], attributes[key])) {
        refused.push(key);
        delete attributes[key];
      }
    }
    if (refused.length) refusals.push({ index: message.index, attributes: refused.sort() });
    return { ...message, attributes };
  });
  return { allowed, refusals };
}
