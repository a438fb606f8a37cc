import { z } from 'zod';
import type { ContentModelDoc, ModelOp } from '../model/types';

/**
 * The HTTP contract of `/api/v1/workspaces/{ws}/content-model`. A model document and its operations are
 * checked for shape loosely here and for meaning by the model engine (src/shared/model), whose messages
 * name the schema and field at fault.
 */

const ModelDocShape = z
  .looseObject({
    domains: z.array(
      z.looseObject({ name: z.string(), title: z.string(), schemas: z.array(z.looseObject({})) }),
    ),
    blockTypes: z.array(
      z.looseObject({ name: z.string(), title: z.string(), fields: z.array(z.looseObject({})) }),
    ),
  })
  .describe('Domains with their schemas, and block types');

const ModelDoc = ModelDocShape as unknown as z.ZodType<ContentModelDoc>;

const RenamedFieldShape = z.object({
  schema: z.string(),
  from: z.string(),
  to: z.string(),
  until: z.string().describe('Until when the delivery API also answers the old name'),
});

export const ContentModelAnswer = z.object({
  version: z.number().int().describe('Rises by 1 with each applied change set; send it back as baseVersion'),
  model: ModelDoc,
  renamed: z
    .array(RenamedFieldShape)
    .optional()
    .describe('Fields renamed lately, whose old names the delivery API still answers (GET only)'),
});
export type ContentModelAnswer = z.infer<typeof ContentModelAnswer>;

const ModelOpShape = z.looseObject({ op: z.string() }) as unknown as z.ZodType<ModelOp>;

/** A change set: operations, or a whole model document to turn the current model into. */
export const ChangeSetBody = z.union([
  z.object({ baseVersion: z.number().int().min(0), ops: z.array(ModelOpShape).min(1).max(5000) }),
  z.object({ baseVersion: z.number().int().min(0).optional(), document: ModelDoc }),
]);
export type ChangeSetBody = z.infer<typeof ChangeSetBody>;

/** The first item ids shown for each count. */
export const PLAN_SAMPLE = 100;

/** What one operation does to existing items. */
export const OpImpact = z.object({
  op: ModelOpShape,
  summary: z.string().describe('The operation in words'),
  /** Items holding a value the operation moves, converts or takes out of the form. */
  touched: z.number().int(),
  /** Items that would then fail validation (incomplete), with the first ids. */
  failing: z.object({ count: z.number().int(), ids: z.array(z.string()) }),
  warning: z.string().optional(),
});
export type OpImpact = z.infer<typeof OpImpact>;

export const PlanAnswer = z.object({
  baseVersion: z.number().int(),
  ops: z.array(ModelOpShape),
  impacts: z.array(OpImpact),
});
export type PlanAnswer = z.infer<typeof PlanAnswer>;

export const ModelChange = z.object({
  id: z.string(),
  baseVersion: z.number().int(),
  version: z.number().int(),
  ops: z.array(ModelOpShape),
  reverts: z.string().nullable(),
  by: z.object({ id: z.string(), name: z.string() }),
  at: z.string(),
  state: z.enum(['running', 'done']),
  progress: z.object({ total: z.number().int(), done: z.number().int() }),
  transformed: z.array(
    z.object({ schema: z.string(), id: z.string(), failed: z.array(z.string()).optional() }),
  ),
  revertible: z.boolean(),
});
export type ModelChange = z.infer<typeof ModelChange>;

/** An applied change set: the model's new version and the change (none when there was nothing to change). */
export const ModelApplied = z.object({ version: z.number().int(), change: ModelChange.nullable() });
export type ModelApplied = z.infer<typeof ModelApplied>;

export const ModelHistory = z.object({ changes: z.array(ModelChange.omit({ transformed: true })) });
export type ModelHistory = z.infer<typeof ModelHistory>;

export const CONTENT_MODEL_MESSAGES = {
  stale: 'The content model has changed since this change set was made: reload it and plan again',
  nothingToChange: 'The change set changes nothing',
  changeNotFound: 'Change not found',
  alreadyReverted: 'This change has already been reverted',
} as const;
