import { z } from 'zod';
import { AGGREGATORS, EVENT_CONDITIONS, GROUP_PREDICATES, LOOK_BACK_UNITS } from './operators';

/**
 * The criteria rule tree (spec §3) as the API carries it, registered by id so the OpenAPI document
 * describes it as components. Operators and values stay open here: whether they fit the attribute's
 * type is checked with the workspace's catalog (check.ts), which names the node that does not fit.
 */

const CriteriaItemRef = z
  .object({
    schemaType: z.string(),
    id: z.string(),
    label: z.string().optional(),
  })
  .meta({ id: 'CriteriaItemRef', description: 'A reference to an item, as the form stores it' });

const RuleValue = z
  .union([z.string(), z.number(), z.boolean(), z.array(z.string()), z.array(z.number())])
  .describe("The rule's value; a list for multi-value operators (in, overlaps, …)");

const Operator = z.string().describe('An operator of the attribute type, e.g. ==, !=, <, in, is in the next');

export const CriteriaAttributeRule = z
  .object({
    type: z.literal('attribute'),
    predicate: z.object({ attribute: CriteriaItemRef.optional() }),
    operator: Operator.optional(),
    value: RuleValue.optional(),
  })
  .meta({ id: 'CriteriaAttributeRule', description: 'Profiles whose attribute compares to the value' });

export const CriteriaAudienceRule = z
  .object({
    type: z.literal('audience'),
    predicate: z.object({ remote: CriteriaItemRef.optional() }),
  })
  .meta({
    id: 'CriteriaAudienceRule',
    description: "Profiles in another audience (that audience's criteria)",
  });

export const CriteriaEventRule = z
  .object({
    type: z.literal('event'),
    event: CriteriaItemRef.optional(),
    lookBackUnit: z.enum(LOOK_BACK_UNITS),
    lookBackValue: z.number(),
    aggregator: z.enum(AGGREGATORS),
    aggregatorCondition: z.enum(EVENT_CONDITIONS.map((c) => c.value) as [string, ...string[]]),
    aggregatorValue: z.number(),
    property: z.string().optional().describe('The summed property for TOTAL'),
    whereProperty: z.string().optional(),
    whereOperator: Operator.optional(),
    whereValue: RuleValue.optional(),
  })
  .meta({
    id: 'CriteriaEventRule',
    description: 'Profiles with a count (or total of a property) of an event in a look-back window',
  });

export const CriteriaGroup = z
  .object({
    label: z.string().describe("The node's position: '1', '1.2', …"),
    predicate: z.enum(GROUP_PREDICATES),
    story: z.string().optional(),
    get children(): z.ZodArray<typeof CriteriaNode> {
      return z.array(CriteriaNode);
    },
  })
  .meta({ id: 'CriteriaGroup', description: 'A group of rules and groups joined by and, or or not' });

export const CriteriaNode: z.ZodUnion<
  readonly [
    typeof CriteriaGroup,
    typeof CriteriaAttributeRule,
    typeof CriteriaAudienceRule,
    typeof CriteriaEventRule,
  ]
> = z
  .union([CriteriaGroup, CriteriaAttributeRule, CriteriaAudienceRule, CriteriaEventRule])
  .meta({ id: 'CriteriaNode', description: 'A node of the criteria rule tree: a group or a rule' });
