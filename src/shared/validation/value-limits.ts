/**
 * Limits of item data: free-form values (a file's sanityResults, a place's
 * google_place, email template components, criteria leaves) would otherwise nest and grow without
 * bound, and every recursive reader — zod, JSON.stringify, PostgreSQL's jsonb — has a stack.
 */
export const MAX_FIELD_DEPTH = 32;
const MAX_FIELD_BYTES = 256 * 1024;
const MAX_ITEM_BYTES = 1024 * 1024;

export const LIMIT_MESSAGES = {
  tooDeep: `Values may nest at most ${MAX_FIELD_DEPTH} levels deep`,
  fieldTooLarge: `A field holds at most ${MAX_FIELD_BYTES / 1024} KB`,
  itemTooLarge: `An item holds at most ${MAX_ITEM_BYTES / 1024 / 1024} MB`,
} as const;

/**
 * Whether arrays and objects in `value` nest deeper than `limit` (a scalar is depth 0, `[1]` depth 1).
 * Walks with an explicit stack and stops at the first container past the limit, so any value is safe.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: depth + 1 });
    }
  }
  return false;
}

/** UTF-8 bytes of a value's JSON; only for values already known not to nest too deep. */
const jsonBytes = (value: unknown): number => new TextEncoder().encode(JSON.stringify(value)).length;

/**
 * The first limit item data breaks, as `{ field, message }` (field undefined for the whole item), or
 * undefined. Depth is checked before anything recursive reads the value.
 */
export function itemDataLimitError(
  data: Readonly<Record<string, unknown>>,
): { field?: string; message: string } | undefined {
  let total = 2;
  for (const [field, value] of Object.entries(data)) {
    if (nestsDeeperThan(value, MAX_FIELD_DEPTH)) return { field, message: LIMIT_MESSAGES.tooDeep };
    const bytes = jsonBytes(value ?? null);
    if (bytes > MAX_FIELD_BYTES) return { field, message: LIMIT_MESSAGES.fieldTooLarge };
    total += bytes + jsonBytes(field) + 2;
  }
  return total > MAX_ITEM_BYTES ? { message: LIMIT_MESSAGES.itemTooLarge } : undefined;
}
