import { MAX_DEPTH } from './operators';
import {
  childLabel,
  isGroup,
  type AttributeRule,
  type AudienceRule,
  type CriteriaGroup,
  type CriteriaNode,
  type EventRule,
} from './tree';

/** Spec §9: the root rule group is label 1 with predicate and. */
export const newRootGroup = (): CriteriaGroup => ({ label: '1', predicate: 'and', children: [] });

export const newGroup = (label: string): CriteriaGroup => ({ label, predicate: 'and', children: [] });

export const newAttributeRule = (): AttributeRule => ({ type: 'attribute', predicate: {} });

export const newAudienceRule = (): AudienceRule => ({ type: 'audience', predicate: {} });

/** Spec §9 default event predicate: 15 minutes look-back, COUNT, >=, 1. */
export const newEventRule = (): EventRule => ({
  type: 'event',
  lookBackUnit: 'minutes',
  lookBackValue: 15,
  aggregator: 'COUNT',
  aggregatorCondition: '>=',
  aggregatorValue: 1,
});

/** Spec §9 new where clause: >= 20. */
export const NEW_WHERE_CLAUSE = { whereOperator: '>=', whereValue: 20 } as const;

/** The depth of a group label: '1' is 1, '1.2.1' is 3. */
const depthOfLabel = (label: string) => label.split('.').length;

/** Whether a group at this label may hold another group (a group at depth 4 holds leaves only). */
export const canAddGroup = (label: string) => depthOfLabel(label) < MAX_DEPTH;

/** How many groups deep a tree goes (the root alone is 1). */
export function treeDepth(node: CriteriaNode): number {
  if (!isGroup(node)) return 0;
  return 1 + Math.max(0, ...node.children.map(treeDepth));
}

/** The tree with every group labelled by its position: root 1, its second child 1.2, and so on. */
export function relabel(group: CriteriaGroup, label = '1'): CriteriaGroup {
  return {
    ...group,
    label,
    children: group.children.map((child, index) =>
      isGroup(child) ? relabel(child, childLabel(label, index)) : child,
    ),
  };
}
