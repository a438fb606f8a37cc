import { describe, expect, it } from 'vitest';
import type { CanvasDefinition } from './definition';
import { arrangeSteps, COLUMN_GAP, LAYER_GAP, layoutSteps, placeStep } from './layout';

const branching: CanvasDefinition = {
  entry: { kind: 'api' },
  start: 'a',
  steps: [
    { id: 'a', type: 'branch', conditions: [] },
    { id: 'yes', type: 'exit' },
    { id: 'no', type: 'wait', seconds: 60 },
    { id: 'end', type: 'exit' },
    { id: 'stray', type: 'exit' },
  ],
  edges: [
    { from: 'a', exit: 'yes', to: 'yes' },
    { from: 'a', exit: 'no', to: 'no' },
    { from: 'no', exit: 'next', to: 'end' },
  ],
};

describe('layoutSteps', () => {
  it('lays steps out in layers by their distance from the first step, the entry above it', () => {
    const { entry, steps } = layoutSteps(branching);
    expect(steps.get('a')).toEqual({ x: 0, y: LAYER_GAP });
    expect(steps.get('yes')).toEqual({ x: -COLUMN_GAP / 2, y: 2 * LAYER_GAP });
    expect(steps.get('no')).toEqual({ x: COLUMN_GAP / 2, y: 2 * LAYER_GAP });
    expect(steps.get('end')).toEqual({ x: 0, y: 3 * LAYER_GAP });
    // A step the first cannot reach goes below every other.
    expect(steps.get('stray')).toEqual({ x: 0, y: 4 * LAYER_GAP });
    expect(entry).toEqual({ x: 0, y: 0 });
  });

  it('keeps a stored position, and lays out a loop without looping', () => {
    const looped: CanvasDefinition = {
      ...branching,
      steps: branching.steps.map((step) =>
        step.id === 'a' ? { ...step, position: { x: 500, y: 40 } } : step,
      ),
      edges: [...branching.edges, { from: 'end', exit: 'next', to: 'a' }],
    };
    const { entry, steps } = layoutSteps(looped);
    expect(steps.get('a')).toEqual({ x: 500, y: 40 });
    expect(entry).toEqual({ x: 500, y: 40 - LAYER_GAP });
    // A first step below another: the entry goes above both.
    const lower = layoutSteps({
      ...looped,
      steps: looped.steps.map((step) => (step.id === 'a' ? { ...step, position: { x: 0, y: 900 } } : step)),
    });
    expect(lower.entry).toEqual({ x: 0, y: 0 });
    expect(steps.get('end')).toEqual({ x: 0, y: 3 * LAYER_GAP });
  });
});

describe('placeStep', () => {
  it('puts a new step below the one it follows, joined to its first open exit, beside a step in its way', () => {
    const open = { ...branching, edges: branching.edges.filter((edge) => edge.exit !== 'yes') };
    const placed = placeStep(open, { id: 'mail', type: 'email' }, 'a');
    expect(placed.edges).toContainEqual({ from: 'a', exit: 'yes', to: 'mail' });
    const mail = placed.steps.find((step) => step.id === 'mail')!;
    expect(mail.position!.y).toBe(2 * LAYER_GAP);
    const others = placed.steps.filter((step) => step.id !== 'mail').map((step) => step.position!);
    expect(
      others.every((xy) => Math.abs(xy.x - mail.position!.x) >= COLUMN_GAP / 2 || xy.y !== mail.position!.y),
    ).toBe(true);
  });

  it('puts a step that follows none below every step, unconnected', () => {
    const placed = placeStep(branching, { id: 'mail', type: 'email' }, null);
    expect(placed.edges).toEqual(branching.edges);
    expect(placed.steps.find((step) => step.id === 'mail')!.position!.y).toBe(5 * LAYER_GAP);
  });
});

describe('arrangeSteps', () => {
  it('lays every step out again', () => {
    const placed = placeStep(branching, { id: 'mail', type: 'email' }, null);
    const arranged = arrangeSteps({
      ...placed,
      start: 'mail',
      edges: [{ from: 'mail', exit: 'next', to: 'a' }],
    });
    expect(arranged.steps.every((step) => step.position === undefined)).toBe(true);
    expect(layoutSteps(arranged).steps.get('mail')).toEqual({ x: 0, y: LAYER_GAP });
  });
});
