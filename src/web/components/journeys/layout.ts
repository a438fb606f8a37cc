import { stepExits, type CanvasDefinition, type CanvasStep, type XY } from './definition';

/** The distance between the tops of two layers, and between the left edges of two steps in a layer. */
export const LAYER_GAP = 170;
export const COLUMN_GAP = 270;

/**
 * Where each step is drawn: where it was dropped, when the definition stores it; otherwise a simple
 * layered layout, top to bottom: a step's layer is its distance from the first step (steps that cannot
 * be reached go below all others), steps of one layer side by side in the order they were found.
 * The entry sits one layer above the highest step, in line with the first.
 */
export function layoutSteps(definition: CanvasDefinition): { entry: XY; steps: Map<string, XY> } {
  const ids = new Set(definition.steps.map((step) => step.id));
  const depth = new Map<string, number>();
  const queue = ids.has(definition.start) ? [definition.start] : [];
  if (queue.length) depth.set(definition.start, 0);
  while (queue.length) {
    const id = queue.shift()!;
    for (const edge of definition.edges) {
      if (edge.from !== id || !ids.has(edge.to) || depth.has(edge.to)) continue;
      depth.set(edge.to, depth.get(id)! + 1);
      queue.push(edge.to);
    }
  }
  const deepest = Math.max(-1, ...depth.values());
  const layers: string[][] = [];
  const order = [...depth.keys(), ...definition.steps.map((step) => step.id).filter((id) => !depth.has(id))];
  for (const id of order) {
    const layer = depth.get(id) ?? deepest + 1;
    (layers[layer] ??= []).push(id);
  }
  const steps = new Map<string, XY>();
  layers.forEach((layer, index) =>
    layer.forEach((id, column) =>
      steps.set(id, { x: (column - (layer.length - 1) / 2) * COLUMN_GAP, y: (index + 1) * LAYER_GAP }),
    ),
  );
  for (const step of definition.steps) if (step.position) steps.set(step.id, step.position);
  // Above every step, so that it never covers one, in line with the first.
  const first = steps.get(definition.start);
  const top = Math.min(LAYER_GAP, ...[...steps.values()].map((xy) => xy.y));
  const entry = { x: first?.x ?? 0, y: top - LAYER_GAP };
  return { entry, steps };
}

/**
 * Adds a step where the canvas shows it: below the step it follows (joined to that step's first open
 * exit), or below every step when it follows none. Every step keeps the place it is drawn at.
 */
export function placeStep(
  definition: CanvasDefinition,
  step: CanvasStep,
  after: string | null,
): CanvasDefinition {
  const { steps: drawn } = layoutSteps(definition);
  const from = after ? definition.steps.find((each) => each.id === after) : undefined;
  const above = from ? drawn.get(from.id) : undefined;
  const lowest = Math.max(0, ...[...drawn.values()].map((xy) => xy.y));
  let position = above ? { x: above.x, y: above.y + LAYER_GAP } : { x: 0, y: lowest + LAYER_GAP };
  const taken = (xy: XY) =>
    [...drawn.values()].some(
      (other) => Math.abs(other.x - xy.x) < COLUMN_GAP / 2 && Math.abs(other.y - xy.y) < LAYER_GAP / 2,
    );
  while (taken(position)) position = { ...position, x: position.x + COLUMN_GAP };
  const steps = definition.steps.map((each) => ({ ...each, position: each.position ?? drawn.get(each.id) }));
  const open =
    from &&
    stepExits(from, definition.edges).find(
      (exit) => !definition.edges.some((edge) => edge.from === from.id && edge.exit === exit),
    );
  return {
    ...definition,
    steps: [...steps, { ...step, position }],
    edges: open ? [...definition.edges, { from: from.id, exit: open, to: step.id }] : definition.edges,
  };
}

/** Forgets where steps were dropped, so that all are laid out again. */
export function arrangeSteps(definition: CanvasDefinition): CanvasDefinition {
  return { ...definition, steps: definition.steps.map(({ position: _position, ...step }) => step) };
}
