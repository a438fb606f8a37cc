import type { GeneratableField } from '../schemas/types';
import { randomAlphanumeric, type RandomBytes } from '../text/random-string';

/** Spec §5: a generate length above 10 makes the field read-only and auto-filled. */
export const isGeneratedField = (field: Pick<GeneratableField, 'generateLength'>) =>
  field.generateLength > 10;

/**
 * The value a generatable field shows: the stored value if any; otherwise, when generated, a random
 * alphanumeric string of generateLength characters; otherwise empty and editable.
 */
export function generatableValue(
  field: Pick<GeneratableField, 'generateLength'>,
  stored: unknown,
  randomBytes?: RandomBytes,
): string {
  if (typeof stored === 'string' && stored !== '') return stored;
  return isGeneratedField(field) ? randomAlphanumeric(field.generateLength, randomBytes) : '';
}
