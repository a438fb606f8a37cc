import type { Reference, ReferenceField, TableField } from '../schemas/types';
import { UNNAMED_ITEM } from './messages';

/** The list with the entry at `index` moved one place up (-1) or down (+1); unchanged at either end. */
export function moveEntry<T>(list: readonly T[], index: number, direction: -1 | 1): T[] {
  const target = index + direction;
  const result = [...list];
  if (index < 0 || index >= list.length || target < 0 || target >= list.length) return result;
  [result[index], result[target]] = [result[target], result[index]];
  return result;
}

/** The list without the entry at `index`. */
export const removeEntry = <T>(list: readonly T[], index: number): T[] => list.filter((_, i) => i !== index);

/** Spec §5: Add is hidden once a table holds its maximum row count. */
export const canAddRow = (field: Pick<TableField, 'maxRows'>, rows: readonly unknown[] | null | undefined) =>
  field.maxRows === undefined || (rows?.length ?? 0) < field.maxRows;

/** Spec §5: a single-reference field is full after one selection. */
export const isReferenceFull = (field: Pick<ReferenceField, 'type'>, value: Reference | null | undefined) =>
  field.type === 'reference' && value !== null && value !== undefined;

/** A reference chip's label, '-- UNNAMED ITEM --' for unnamed targets. */
export const referenceLabel = (reference: Pick<Reference, 'label'>) =>
  reference.label?.trim() || UNNAMED_ITEM;

/** Spec §5: uploads accept image/* files only (or the field's own `accept` list of types and wildcards). */
export function isAcceptedUpload(contentType: string, accept = 'image/*'): boolean {
  const type = contentType.toLowerCase().trim();
  return accept
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .some((entry) =>
      entry.endsWith('/*')
        ? type.startsWith(entry.slice(0, -1)) && type.length > entry.length - 1
        : entry === type,
    );
}
