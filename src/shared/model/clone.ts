/**
 * A deep copy of JSON data (an item's data as the database or a request gives it): several times
 * faster than `structuredClone`, which the migration would otherwise pay for every row it converts.
 * A key named `__proto__` stays an own property, as JSON.parse made it.
 */
export function cloneJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map(cloneJson) as T;
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (key === '__proto__')
      Object.defineProperty(copy, key, {
        value: cloneJson(entry),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else copy[key] = cloneJson(entry);
  }
  return copy as T;
}
