import type { FieldType } from '@shared/schemas/types';
import type { ItemReference } from '../db/schema';

/** A reference a field value carries inside itself, such as an inline image or an item link in rich text. */
export type EmbeddedReference = Omit<ItemReference, 'fieldKey'> & { id: string };

/**
 * What items reads in the values of a field type whose format only that type's plug-in knows (rich
 * text's HTML): registered when the app is built (app.ts), so items imports none of the field types'
 * modules. Both readers take the value as stored and answer nothing for a value they cannot read.
 */
export interface ItemFieldReader {
  /** The references the value carries, for `_references`. */
  references?(value: unknown): EmbeddedReference[];
  /** The words a reader of the value sees (no markup), for the item list's search. */
  text?(value: unknown): string;
}

export type ItemFieldReaders = Readonly<Partial<Record<FieldType, ItemFieldReader>>>;

declare module '../context' {
  interface AppContext {
    /** The readers of field types whose values items cannot read by itself. */
    itemFieldReaders: ItemFieldReaders;
  }
}
