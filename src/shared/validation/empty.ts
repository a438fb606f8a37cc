/** Spec §5 "empty": an empty string, null, undefined or an empty list. Whitespace and {} are not empty. */
export function isEmptyValue(value: unknown): boolean {
  return (
    value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)
  );
}
