import type { SelectOption } from '../schemas/types';
import { OLD_VALUE_PREFIX } from './messages';

/** The label of a stored select value; '--Old Value--{value}' when it is no longer among the options. */
export function selectOptionLabel(options: readonly SelectOption[], value: string): string {
  return options.find((option) => option.value === value)?.label ?? `${OLD_VALUE_PREFIX}${value}`;
}

/** The options to offer: the field's own, then one '--Old Value--' entry per stored value not among them. */
export function selectDisplayOptions(
  options: readonly SelectOption[],
  stored: string | readonly string[] | null | undefined,
): SelectOption[] {
  const values = stored == null ? [] : typeof stored === 'string' ? [stored] : stored;
  const known = new Set(options.map((option) => option.value));
  const old = [...new Set(values)]
    .filter((value) => value !== '' && !known.has(value))
    .map((value) => ({ value, label: `${OLD_VALUE_PREFIX}${value}` }));
  return [...options, ...old];
}
