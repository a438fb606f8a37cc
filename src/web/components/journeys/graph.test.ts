import { describe, expect, it } from 'vitest';
import { checkJourney } from '@shared/journeys/validate';
import {
  connect,
  moveSteps,
  readDefinition,
  removeStep,
  stepExits,
  writeDefinition,
  type CanvasDefinition,
} from './definition';
import { edgeId, edgeOfId, ENTRY_NODE_ID, toGraph } from './graph';

const welcome: CanvasDefinition = {
  entry: { kind: 'event', event: 'signup', conditions: [] },
  reentry: { mode: 'once' },
  goal: null,
  start: 'hello',
  steps: [
    { id: 'hello', name: 'Welcome', type: 'email', email: 'e1', sender: 's1' },
    { id: 'wait', type: 'wait-for-event', event: 'purchase', conditions: [], timeoutSeconds: 86400 },
    { id: 'end', type: 'exit' },
  ],
  edges: [
    { from: 'hello', exit: 'next', to: 'wait' },
    { from: 'wait', exit: 'event', to: 'end' },
    { from: 'wait', exit: 'timeout', to: 'end' },
  ],
};

describe('definition ⇄ graph', () => {
  it('draws the entry joined to the first step, each step with its exits, each connection by its exit', () => {
    const { nodes, edges } = toGraph(welcome);
    expect(nodes.map((node) => [node.id, node.type])).toEqual([
      [ENTRY_NODE_ID, 'entry'],
      ['hello', 'step'],
      ['wait', 'step'],
      ['end', 'step'],
    ]);
    const wait = nodes.find((node) => node.id === 'wait')!;
    expect(wait.data).toMatchObject({ exits: ['event', 'timeout'], isStart: false });
    expect(nodes.find((node) => node.id === 'end')!.data).toMatchObject({ exits: [] });
    expect(edges.map((edge) => [edge.source, edge.sourceHandle, edge.target])).toEqual([
      [ENTRY_NODE_ID, 'start', 'hello'],
      ['hello', 'next', 'wait'],
      ['wait', 'event', 'end'],
      ['wait', 'timeout', 'end'],
    ]);
  });

  it('finds an edge of the definition again from its id', () => {
    expect(edgeOfId(edgeId('wait', 'timeout'))).toEqual({ from: 'wait', exit: 'timeout' });
    expect(edgeOfId(ENTRY_NODE_ID)).toBeNull();
  });

  it('marks the steps a problem is about and shows the counts on nodes and edges', () => {
    const { problems } = checkJourney(connect(welcome, 'wait', 'timeout', null));
    const counts = new Map([['wait', { waiting: 3, exits: { event: 2, timeout: 1 } }]]);
    const { nodes, edges } = toGraph(welcome, { problems, counts });
    expect(nodes.find((node) => node.id === 'wait')!.data).toMatchObject({
      problems: ['Step "wait": the exit "timeout" is not connected'],
      counts: { waiting: 3 },
    });
    expect(nodes.find((node) => node.id === 'hello')!.data).toMatchObject({ problems: [] });
    expect(edges.find((edge) => edge.id === edgeId('wait', 'event'))!.label).toBe('2 passed');
  });

  it('reads the JSON text and writes back what it read, keeping keys and kinds it does not know', () => {
    const text = JSON.stringify({
      ...welcome,
      caps: { perDay: 2 },
      steps: [...welcome.steps, { id: 'hook', type: 'sms', text: 'Hi' }],
      edges: [...welcome.edges, { from: 'hook', exit: 'sent', to: 'end' }],
    });
    const read = readDefinition(text);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(JSON.parse(writeDefinition(read.definition))).toEqual(JSON.parse(text));
    const hook = read.definition.steps.find((step) => step.id === 'hook')!;
    // An unknown kind keeps the exits its connections leave by.
    expect(stepExits(hook, read.definition.edges)).toEqual(['next', 'sent']);
    expect(toGraph(read.definition).nodes.find((node) => node.id === 'hook')!.data).toMatchObject({
      exits: ['next', 'sent'],
    });
  });

  it('says why a definition cannot be drawn', () => {
    expect(readDefinition('{')).toEqual({ ok: false, problem: 'it is not JSON' });
    expect(readDefinition('[]')).toEqual({ ok: false, problem: 'it is not a JSON object' });
    expect(readDefinition('{"steps":[{"id":"a"}]}')).toEqual({
      ok: false,
      problem: 'step 1 has no id or type',
    });
  });

  it('connects, reconnects and disconnects an exit; removing a step removes its connections', () => {
    const rejoined = connect(welcome, 'wait', 'event', 'hello');
    expect(rejoined.edges).toContainEqual({ from: 'wait', exit: 'event', to: 'hello' });
    expect(rejoined.edges.filter((edge) => edge.from === 'wait' && edge.exit === 'event')).toHaveLength(1);
    const removed = removeStep(welcome, 'hello');
    expect(removed.start).toBe('wait');
    expect(removed.edges.some((edge) => edge.from === 'hello' || edge.to === 'hello')).toBe(false);
  });

  it('stores dropped positions rounded', () => {
    const moved = moveSteps(welcome, new Map([['end', { x: 10.4, y: 20.6 }]]));
    expect(moved.steps.find((step) => step.id === 'end')!.position).toEqual({ x: 10, y: 21 });
  });
});
