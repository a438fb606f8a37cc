import { toKebabCase } from '../text/slug';
import type { CombinationRow } from '../schemas/types';
import { isEmptyValue } from './empty';
import {
  COMBINATION_NAME_DUPLICATE_MESSAGE,
  COMBINATION_NAME_REQUIRED_MESSAGE,
  COMBINATION_OVERRIDE_REQUIRED_MESSAGE,
} from './messages';

/**
 * Spec §5: combination rows need a unique Name (`_slug`, compared as kebab-case) and at least one
 * Override with a value. Errors are keyed by path: '{key}.{row}._slug' and '{key}.{row}.overrides'.
 */
export function validateCombinations(
  key: string,
  rows: readonly Partial<CombinationRow>[],
): Record<string, string> {
  const errors: Record<string, string> = {};
  const seen = new Set<string>();
  rows.forEach((row, index) => {
    const slug = toKebabCase(typeof row._slug === 'string' ? row._slug : '');
    if (!slug) errors[`${key}.${index}._slug`] = COMBINATION_NAME_REQUIRED_MESSAGE;
    else if (seen.has(slug)) errors[`${key}.${index}._slug`] = COMBINATION_NAME_DUPLICATE_MESSAGE;
    seen.add(slug);
    const overrides = Object.values(row.overrides ?? {});
    if (!overrides.some((value) => !isEmptyValue(value))) {
      errors[`${key}.${index}.overrides`] = COMBINATION_OVERRIDE_REQUIRED_MESSAGE;
    }
  });
  return errors;
}
