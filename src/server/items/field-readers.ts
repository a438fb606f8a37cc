import type { FieldType } from '@shared/schemas/types';
import type { ItemReference } from '../db/schema';

/** A reference a field value carries inside itself, such as an inline image or an item link in rich text. */
export type EmbeddedReference = Omit<ItemReference, 'fieldKey'> & { id: string };

/**
 * What items reads in the values of a field type whose format only that type's plug-in knows (rich
 * text's HTML): registered when the app is built (app.ts), so items imports none of the field types'
 * modules. A reader takes the value as stored and answers nothing for a value it cannot read.
 */
export interface ItemFieldReader {
  /** The references the value carries, for `_references`. */
  references?(value: unknown): EmbeddedReference[];
}

export type ItemFieldReaders = Readonly<Partial<Record<FieldType, ItemFieldReader>>>;

declare module '../context' {
  interface AppContext {
    /** The readers of field types whose values items cannot read by itself. */
    itemFieldReaders: ItemFieldReaders;
  }
}
