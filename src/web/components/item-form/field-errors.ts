import { LOCALES_KEY } from '@shared/locales/locales';
import type { ValidationErrors } from '@shared/validation/validate-item';

const isMessageMap = (value: unknown): value is Record<string, string> =>
  !!value &&
  typeof value === 'object' &&
  !Array.isArray(value) &&
  Object.values(value as Record<string, unknown>).every((message) => typeof message === 'string');

/**
 * The field errors a failed save carries: `details.errors` (path → message) of the error or of any error
 * in its `cause` chain (the item screens wrap the API's error in their banner text). Null when there are none.
 */
export function fieldErrorsOf(failure: unknown): ValidationErrors | null {
  const seen = new Set<unknown>();
  let current = failure;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    const details = (current as { details?: unknown }).details;
    const errors =
      details && typeof details === 'object' ? (details as { errors?: unknown }).errors : undefined;
    if (isMessageMap(errors) && Object.keys(errors).length > 0) return errors;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

/**
 * Errors keyed by where the form shows them: a path naming one entry of a list ('copy.0') is shown on the
 * list field ('copy'); several messages for one field are joined, each once.
 */
export function errorsByField(errors: Readonly<Record<string, string>>): ValidationErrors {
  const grouped = new Map<string, string[]>();
  for (const [path, message] of Object.entries(errors)) {
    const key = path.replace(/(\.\d+)+$/, '');
    const messages = grouped.get(key) ?? [];
    if (!messages.includes(message)) messages.push(message);
    grouped.set(key, messages);
  }
  return Object.fromEntries([...grouped].map(([key, messages]) => [key, messages.join(' ')]));
}

/** The field an error path belongs to: its top-level key, or '_locales.fr-FR.name' for a locale's value. */
export function errorKey(path: string): string {
  const parts = path.split('.');
  return parts[0] === LOCALES_KEY ? parts.slice(0, 3).join('.') : parts[0];
}

/** `errors` without the paths under the given field keys (as `errorKey` names them). */
export function withoutFields(errors: ValidationErrors, keys: readonly string[]): ValidationErrors {
  const remaining = Object.entries(errors).filter(([path]) => !keys.includes(errorKey(path)));
  return remaining.length === Object.keys(errors).length ? errors : Object.fromEntries(remaining);
}
