const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;

/** Keys are built from validated ids only; this refuses anything that could climb out of the store. */
export function assertSafeKey(key: string): void {
  const segments = key.split('/');
  if (segments.some((s) => !SEGMENT.test(s) || s.includes('..')))
    throw new Error(`Unsafe storage key ${key}`);
}
