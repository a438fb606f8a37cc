import type { JourneyStep } from '@shared/api/journeys';
import { exitsOf } from '@shared/journeys/validate';

/**
 * A journey's definition as the canvas holds it: read loosely, so that kinds of steps and entries the
 * canvas does not know yet (and keys it does not use) are kept as they are and drawn generically.
 */
export interface XY {
  x: number;
  y: number;
}

export interface CanvasStep {
  id: string;
  type: string;
  name?: string;
  position?: XY;
  [key: string]: unknown;
}

export interface CanvasEdge {
  from: string;
  exit: string;
  to: string;
}

export interface CanvasEntry {
  kind: string;
  [key: string]: unknown;
}

export interface CanvasDefinition {
  entry: CanvasEntry;
  reentry?: { mode: string; [key: string]: unknown };
  goal?: { event: string; conditions?: unknown[] } | null;
  start: string;
  steps: CanvasStep[];
  edges: CanvasEdge[];
  [key: string]: unknown;
}

export type ReadDefinition = { ok: true; definition: CanvasDefinition } | { ok: false; problem: string };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The definition field's JSON text as the canvas draws it, or why it cannot be drawn. */
export function readDefinition(text: unknown): ReadDefinition {
  let raw: unknown;
  try {
    raw = JSON.parse(typeof text === 'string' && text.trim() ? text : '{}');
  } catch {
    return { ok: false, problem: 'it is not JSON' };
  }
  if (!isObject(raw)) return { ok: false, problem: 'it is not a JSON object' };
  const steps = Array.isArray(raw.steps) ? raw.steps : [];
  const badStep = steps.findIndex(
    (step) => !isObject(step) || typeof step.id !== 'string' || typeof step.type !== 'string',
  );
  if (badStep >= 0) return { ok: false, problem: `step ${badStep + 1} has no id or type` };
  const edges = (Array.isArray(raw.edges) ? raw.edges : []).filter(isObject).map((edge) => ({
    ...edge,
    from: String(edge.from ?? ''),
    exit: typeof edge.exit === 'string' ? edge.exit : 'next',
    to: String(edge.to ?? ''),
  }));
  const entry = isObject(raw.entry) && typeof raw.entry.kind === 'string' ? raw.entry : { kind: 'api' };
  return {
    ok: true,
    definition: {
      ...raw,
      entry: entry as CanvasEntry,
      start: typeof raw.start === 'string' ? raw.start : '',
      steps: steps as CanvasStep[],
      edges,
    },
  };
}

/** The JSON text stored in the item's field. */
export const writeDefinition = (definition: CanvasDefinition) => JSON.stringify(definition, null, 2);

/**
 * A step's named exits: the engine's for the kinds it knows, plus any exit an edge leaves by (a kind
 * drawn generically keeps the connections it has).
 */
export function stepExits(step: CanvasStep, edges: readonly CanvasEdge[]): string[] {
  let known: string[];
  try {
    known =
      step.type === 'split' && !Array.isArray(step.paths) ? [] : exitsOf(step as unknown as JourneyStep);
  } catch {
    known = [];
  }
  const used = edges.filter((edge) => edge.from === step.id).map((edge) => edge.exit);
  return [...new Set([...known, ...used])];
}

/** A step id not yet taken, from the kind's name. */
export function newStepId(definition: CanvasDefinition, kind: string) {
  const taken = new Set(definition.steps.map((step) => step.id));
  let n = 1;
  while (taken.has(`${kind}-${n}`)) n += 1;
  return `${kind}-${n}`;
}

/** Removes a step and the connections to and from it; the first step moves to where it led, if anywhere. */
export function removeStep(definition: CanvasDefinition, id: string): CanvasDefinition {
  const steps = definition.steps.filter((step) => step.id !== id);
  const next = definition.edges.find((edge) => edge.from === id && edge.to !== id)?.to;
  return {
    ...definition,
    steps,
    edges: definition.edges.filter((edge) => edge.from !== id && edge.to !== id),
    start: definition.start === id ? (next ?? steps[0]?.id ?? '') : definition.start,
  };
}

/** Joins a step's exit to the next step (null: leaves it unconnected), replacing what it joined before. */
export function connect(
  definition: CanvasDefinition,
  from: string,
  exit: string,
  to: string | null,
): CanvasDefinition {
  const edges = definition.edges.filter((edge) => !(edge.from === from && edge.exit === exit));
  return { ...definition, edges: to ? [...edges, { from, exit, to }] : edges };
}

export function updateStep(definition: CanvasDefinition, step: CanvasStep): CanvasDefinition {
  return { ...definition, steps: definition.steps.map((each) => (each.id === step.id ? step : each)) };
}

/** Stores where steps were dropped on the canvas. */
export function moveSteps(
  definition: CanvasDefinition,
  positions: ReadonlyMap<string, XY>,
): CanvasDefinition {
  return {
    ...definition,
    steps: definition.steps.map((step) => {
      const position = positions.get(step.id);
      return position
        ? { ...step, position: { x: Math.round(position.x), y: Math.round(position.y) } }
        : step;
    }),
  };
}

/** What a step is called on the canvas and in messages: its name, or its id. */
export const stepLabel = (step: CanvasStep) => (typeof step.name === 'string' && step.name.trim()) || step.id;
