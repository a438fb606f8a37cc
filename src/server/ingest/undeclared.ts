import { UNDECLARED_LIMITS, UNDECLARED_MESSAGES, type UndeclaredKind } from '@shared/api/undeclared';
import { declaredEventKey, type CustomerDefinitions } from '../customers/definitions';
import type { UndeclaredName } from '../customers/customer-rows';
import { MAX_EXAMPLES, type UndeclaredTally } from './undeclared-repository';

/** How a kept name is told apart from the others: `kind \t event \t name`. */
export const nameId = (name: { kind: string; event: string; name: string }) =>
  `${name.kind}\t${name.event}\t${name.name}`;

/** Whether the definitions declare a kept name by now (a property when its event has it). */
export function isDeclared(defs: CustomerDefinitions, kind: UndeclaredKind, event: string, name: string) {
  if (kind === 'attribute') return defs.attributesByKey.has(name);
  if (kind === 'event') return declaredEventKey(defs, name) !== undefined;
  const declared = declaredEventKey(defs, event);
  return declared !== undefined && defs.eventsByKey.get(declared)!.has(name);
}

/**
 * The workspace's bound on undeclared names over a request's messages, in their order: a message that
 * would add a name of a kind the workspace keeps UNDECLARED_LIMITS of (names kept, less those declared
 * since, plus those the request's earlier messages added) answers why not; the others answer
 * undefined. `kept` are the names the workspace has (`undeclaredNames`).
 */
export function overTheLimit(
  messages: (UndeclaredName[] | undefined)[],
  kept: ReadonlySet<string>,
  defs: CustomerDefinitions,
): (string | undefined)[] {
  const counts: Record<UndeclaredKind, number> = { event: 0, property: 0, attribute: 0 };
  for (const id of kept) {
    const [kind, event, name] = id.split('\t') as [UndeclaredKind, string, string];
    if (!isDeclared(defs, kind, event, name)) counts[kind]++;
  }
  const added = new Set<string>();
  return messages.map((names) => {
    const fresh = new Map<string, UndeclaredName>();
    for (const name of names ?? []) {
      const id = nameId(name);
      if (!kept.has(id) && !added.has(id)) fresh.set(id, name);
    }
    const adding: Record<UndeclaredKind, number> = { event: 0, property: 0, attribute: 0 };
    for (const name of fresh.values()) {
      if (counts[name.kind] + ++adding[name.kind] > UNDECLARED_LIMITS[name.kind])
        return UNDECLARED_MESSAGES.limitReached(name.kind, name.name);
    }
    for (const [id, name] of fresh) {
      added.add(id);
      counts[name.kind]++;
    }
    return undefined;
  });
}

/** The accepted messages' undeclared names, tallied per name and type of value, in key order. */
export function tallyUndeclared(messages: UndeclaredName[][]): UndeclaredTally[] {
  const tallies = new Map<string, UndeclaredTally & { texts?: Set<string> }>();
  for (const names of messages) {
    for (const name of names) {
      const id = `${nameId(name)}\t${name.type}`;
      let tally = tallies.get(id);
      if (!tally) {
        tally = { kind: name.kind, event: name.event, name: name.name, type: name.type, count: 0 };
        tallies.set(id, tally);
      }
      tally.count++;
      for (const text of name.examples ?? []) {
        tally.texts ??= new Set();
        if (tally.texts.size < MAX_EXAMPLES && text.length <= MAX_EXAMPLE_LENGTH) tally.texts.add(text);
      }
    }
  }
  return [...tallies.keys()].sort().map((id) => {
    const { texts, ...tally } = tallies.get(id)!;
    return texts ? { ...tally, examples: [...texts] } : tally;
  });
}

/** Longest text an array attribute keeps as an option. */
const MAX_EXAMPLE_LENGTH = 100;
