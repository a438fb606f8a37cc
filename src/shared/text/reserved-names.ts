/**
 * Names that plain JavaScript objects already answer to (`constructor`, `toString`, `__proto__`, …).
 * Role ids, stage values and keys are looked up by name, so none of them may be one of these: a lookup
 * with `in` or `obj[name]` would find the built-in instead of nothing.
 */
const RESERVED_NAMES: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

export const isReservedName = (name: string): boolean => RESERVED_NAMES.has(name);

export const reservedNameMessage = (name: string) => `"${name}" is a reserved name; choose another`;

/** The value stored under `name` as the object's own property, never an inherited built-in. */
export function ownValue<T>(record: Readonly<Record<string, T>>, name: string): T | undefined {
  return Object.hasOwn(record, name) ? record[name] : undefined;
}
