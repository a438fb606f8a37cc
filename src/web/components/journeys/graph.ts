import type { Edge, Node } from '@xyflow/react';
import type { JourneyProblem } from '@shared/journeys/validate';
import { stepExits, type CanvasDefinition, type CanvasEntry, type CanvasStep } from './definition';
import { layoutSteps } from './layout';

/** The entry's node: not a step, joined to the first step. */
export const ENTRY_NODE_ID = '__entry';
export const ENTRY_HANDLE = 'start';

/** What the canvas knows of a step's results: profiles waiting there now and those that left by each exit. */
export interface StepCounts {
  waiting: number;
  exits: Record<string, number>;
}

type StepNodeData = {
  step: CanvasStep;
  exits: string[];
  isStart: boolean;
  problems: string[];
  counts?: StepCounts;
};
type EntryNodeData = { entry: CanvasEntry; problems: string[] };
export type StepNode = Node<StepNodeData, 'step'>;
export type EntryNode = Node<EntryNodeData, 'entry'>;
export type JourneyNode = StepNode | EntryNode;

interface GraphOptions {
  problems?: readonly JourneyProblem[];
  counts?: ReadonlyMap<string, StepCounts>;
  selectedId?: string | null;
  readOnly?: boolean;
}

/** An edge's id names the exit it leaves by, so a removed edge is found again in the definition. */
export const edgeId = (from: string, exit: string) => `edge:${JSON.stringify([from, exit])}`;

export function edgeOfId(id: string): { from: string; exit: string } | null {
  if (!id.startsWith('edge:')) return null;
  const [from, exit] = JSON.parse(id.slice('edge:'.length)) as [string, string];
  return { from, exit };
}

/** The definition as React Flow's nodes and edges: the entry, each step with its exits, each connection. */
export function toGraph(definition: CanvasDefinition, options: GraphOptions = {}) {
  const { problems = [], counts, selectedId = null, readOnly = false } = options;
  const layout = layoutSteps(definition);
  const problemsOf = (id?: string) => problems.filter((p) => p.stepId === id).map((p) => p.message);
  const entry: EntryNode = {
    id: ENTRY_NODE_ID,
    type: 'entry',
    position: layout.entry,
    data: { entry: definition.entry, problems: problemsOf(undefined) },
    selected: selectedId === ENTRY_NODE_ID,
    deletable: false,
    draggable: false,
  };
  const steps: StepNode[] = definition.steps.map((step) => ({
    id: step.id,
    type: 'step',
    position: layout.steps.get(step.id) ?? { x: 0, y: 0 },
    data: {
      step,
      exits: stepExits(step, definition.edges),
      isStart: step.id === definition.start,
      problems: problemsOf(step.id),
      ...(counts ? { counts: counts.get(step.id) ?? { waiting: 0, exits: {} } } : {}),
    },
    selected: selectedId === step.id,
    deletable: !readOnly,
    ariaLabel: `Step ${step.name?.trim() || step.id}`,
  }));
  const ids = new Set(definition.steps.map((step) => step.id));
  const edges: Edge[] = definition.edges
    .filter((edge) => ids.has(edge.from) && ids.has(edge.to))
    .map((edge) => {
      const passed = counts?.get(edge.from)?.exits[edge.exit];
      const id = edgeId(edge.from, edge.exit);
      return {
        id,
        source: edge.from,
        sourceHandle: edge.exit,
        target: edge.to,
        selected: selectedId === id,
        deletable: !readOnly,
        ariaLabel: `From ${edge.from} by “${edge.exit}” to ${edge.to}`,
        ...(passed !== undefined ? { label: `${passed} passed`, data: { passed } } : {}),
      };
    });
  if (ids.has(definition.start))
    edges.unshift({
      id: ENTRY_NODE_ID,
      source: ENTRY_NODE_ID,
      sourceHandle: ENTRY_HANDLE,
      target: definition.start,
      deletable: false,
      ariaLabel: `Entry to the first step, ${definition.start}`,
    });
  return { nodes: [entry, ...steps] as JourneyNode[], edges };
}
