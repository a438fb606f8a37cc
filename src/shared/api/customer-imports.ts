import { z } from 'zod';
import { ATTRIBUTE_TYPES, PROPERTY_TYPES } from '../schemas/marketing';

/**
 * The HTTP contract of an import's preview and mapping: which attribute (or event property) each column
 * of a file goes to, and the attributes and events an import creates first.
 */

/** Rows a preview reads (for the types it infers) before it stops. */
export const PREVIEW_ROWS = 1000;
/** Rows of the file a preview answers as they are. */
export const PREVIEW_SAMPLE_ROWS = 5;

/** Types an import infers and may create: number, string, boolean, date, array of strings. */
export const InferredType = z.enum(PROPERTY_TYPES);
export type InferredType = z.infer<typeof InferredType>;

const Key = z.string().trim().min(1).max(100);
const Label = z.string().trim().min(1).max(200);

/** A column skipped, or the key it goes to (created with `type` and `label` when no attribute has it). */
export const ColumnMapping = z.union([
  z.literal('skip'),
  z
    .object({
      key: Key.describe('The attribute (or event property) key the column goes to'),
      type: InferredType.optional().describe('Needed when the attribute does not exist yet: it is created'),
      label: Label.optional().describe('Name of an attribute created; the column by default'),
      options: z
        .array(z.string().trim().min(1).max(200))
        .max(500)
        .optional()
        .describe('The values an array attribute created may take (required then)'),
    })
    .strict(),
]);
export type ColumnMapping = z.infer<typeof ColumnMapping>;

const EventProperty = z.object({ name: Key, type: InferredType }).strict();

/** An event to create, or an existing one to give the properties it lacks. */
const EventMapping = z
  .object({
    label: Label.optional().describe('Name of an event created; its key by default'),
    properties: z.array(EventProperty).max(100).default([]),
  })
  .strict();

export const ImportMapping = z
  .object({
    columns: z
      .record(z.string().max(200), ColumnMapping)
      .default({})
      .describe(
        'By column as the file spells it (a CSV header, an NDJSON attribute or property key). A column left out goes to the key it spells.',
      ),
    events: z
      .record(Key, EventMapping)
      .default({})
      .describe('Event imports: behavioral events to create, or existing ones to give more properties'),
  })
  .strict();
export type ImportMapping = z.infer<typeof ImportMapping>;
export type ImportMappingInput = z.input<typeof ImportMapping>;

export const PreviewColumn = z.object({
  column: z.string().describe('As the file spells it'),
  own: z.boolean().describe("One of the row's own columns (id, profileId, event, at…): not mapped"),
  match: z
    .enum(['key', 'label', 'new', 'own'])
    .describe('Matched to an existing attribute by key or by label, or proposed as a new one'),
  key: z.string().describe('The key proposed'),
  keyChange: z.string().nullable().describe('Why the proposed key differs from the column, when it must'),
  label: z.string(),
  type: z.enum(ATTRIBUTE_TYPES).describe('The existing attribute’s type, or the one inferred'),
  inferred: InferredType.nullable().describe('Inferred from the values read (null: no values)'),
  filled: z.number().describe('Rows read with a value in this column'),
  samples: z.array(z.string()).describe('The first few values, as text'),
  options: z.array(z.string()).describe('An array column: the values its lists hold'),
});
export type PreviewColumn = z.infer<typeof PreviewColumn>;

const PreviewEvent = z.object({
  key: z.string(),
  known: z.boolean().describe('A behavioral-event item has this key'),
  rows: z.number().describe('Rows read with this event'),
  missing: z.array(EventProperty).describe('Properties its rows have that the event does not declare'),
});

export const PreviewAnswer = z.object({
  format: z.enum(['csv', 'ndjson']),
  rowsRead: z.number(),
  columns: z.array(PreviewColumn),
  rows: z.array(z.array(z.string())).describe('The first rows, cells in column order'),
  events: z.array(PreviewEvent).describe('Event imports: the events read'),
  errors: z.array(z.object({ line: z.number(), message: z.string() })),
  mapping: ImportMapping.describe('The proposal, ready to send as the import’s `mapping`'),
});
export type PreviewAnswer = z.infer<typeof PreviewAnswer>;
