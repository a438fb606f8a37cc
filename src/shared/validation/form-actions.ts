import { INCOMPLETE_ITEM_MESSAGE, SAVE_BLOCKED_MESSAGE } from './messages';

export interface FormState {
  dirty: boolean;
  valid: boolean;
  allowSaveWithErrors?: boolean;
}

/** Spec §5: Save only when dirty and valid (or saving with errors is allowed); Reset only when dirty. */
export function formActions({ dirty, valid, allowSaveWithErrors = false }: FormState) {
  return { canSave: dirty && (valid || allowSaveWithErrors), canReset: dirty };
}

export type SaveDecision =
  | { allowed: false; message: typeof SAVE_BLOCKED_MESSAGE }
  | { allowed: true; hasErrors: false }
  | { allowed: true; hasErrors: true; banner: typeof INCOMPLETE_ITEM_MESSAGE };

/**
 * Whether an item with these validation errors may be saved (spec §5): blocked with 'Please fix
 * validation errors before saving', or stored with `__hasErrors` and the incomplete banner when the
 * schema allows saving with errors.
 */
export function decideSave(
  errors: Readonly<Record<string, string>>,
  allowSaveWithErrors = false,
): SaveDecision {
  if (Object.keys(errors).length === 0) return { allowed: true, hasErrors: false };
  if (!allowSaveWithErrors) return { allowed: false, message: SAVE_BLOCKED_MESSAGE };
  return { allowed: true, hasErrors: true, banner: INCOMPLETE_ITEM_MESSAGE };
}
