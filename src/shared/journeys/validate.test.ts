import { describe, expect, it } from 'vitest';
import { conditionsHold } from './conditions';
import { checkJourney, parseJourney } from './validate';

const welcome = {
  entry: { kind: 'event', event: 'signup' },
  start: 'hello',
  steps: [
    { id: 'hello', name: 'Welcome', type: 'email', email: 'e1', sender: 's1' },
    { id: 'wait', type: 'wait-for-event', event: 'purchase', timeoutSeconds: 86400 },
    { id: 'vip', type: 'branch', conditions: [{ key: 'tier', op: '==', value: 'gold' }] },
    { id: 'end', type: 'exit' },
  ],
  edges: [
    { from: 'hello', to: 'wait' },
    { from: 'wait', exit: 'event', to: 'vip' },
    { from: 'wait', exit: 'timeout', to: 'end' },
    { from: 'vip', exit: 'yes', to: 'end' },
    { from: 'vip', exit: 'no', to: 'end' },
  ],
};

const problemOf = (definition: unknown) => {
  const parsed = parseJourney(definition);
  return parsed.ok ? null : parsed.problem;
};

describe('parseJourney', () => {
  it('accepts a complete journey, as JSON text too, with the defaults filled', () => {
    const parsed = parseJourney(JSON.stringify(welcome));
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(parsed.definition.reentry).toEqual({ mode: 'once' });
  });

  it('names the email step without a template', () => {
    const steps = welcome.steps.map((step) => (step.id === 'hello' ? { ...step, email: undefined } : step));
    expect(problemOf({ ...welcome, steps })).toBe('Step "Welcome": choose the email template to send');
  });

  it('names the branch with an unconnected exit', () => {
    const edges = welcome.edges.filter((edge) => !(edge.from === 'vip' && edge.exit === 'no'));
    expect(problemOf({ ...welcome, edges })).toBe('Step "vip": the exit "no" is not connected');
  });

  it('names a step on a loop without a wait, and allows a loop through one', () => {
    // hello → wait → vip → hello passes the wait-for-event step: allowed.
    const held = {
      ...welcome,
      edges: welcome.edges.map((edge) =>
        edge.from === 'vip' && edge.exit === 'no' ? { ...edge, to: 'hello' } : edge,
      ),
    };
    expect(problemOf(held)).toBeNull();
    const hot = {
      ...welcome,
      steps: [welcome.steps[0], welcome.steps[2], welcome.steps[3]],
      edges: [
        { from: 'hello', to: 'vip' },
        { from: 'vip', exit: 'yes', to: 'end' },
        { from: 'vip', exit: 'no', to: 'hello' },
      ],
    };
    expect(problemOf(hot)).toBe('Step "Welcome": it is on a loop without a wait');
  });

  it('names the step whose fields do not fit, and refuses what is not JSON', () => {
    const steps = [...welcome.steps, { id: 'later', type: 'wait', seconds: -1 }];
    expect(problemOf({ ...welcome, steps })).toMatch(/^Step "later": /);
    expect(problemOf('{')).toBe('it is not JSON');
    expect(problemOf({ ...welcome, start: 'nope' })).toBe('The first step "nope" does not exist');
  });

  it('requires a split to share out all of its profiles', () => {
    const steps = [
      {
        id: 'ab',
        type: 'split',
        paths: [
          { key: 'a', percent: 40 },
          { key: 'b', percent: 40 },
        ],
        holdoutPercent: 10,
      },
      { id: 'end', type: 'exit' },
    ];
    const edges = [
      { from: 'ab', exit: 'a', to: 'end' },
      { from: 'ab', exit: 'b', to: 'end' },
    ];
    expect(problemOf({ ...welcome, start: 'ab', steps, edges })).toBe(
      'Step "ab": the paths and the holdout must add up to 100%',
    );
  });
});

describe('the steps and entries that need a choice', () => {
  const single = (step: object, exits: string[]) => ({
    entry: { kind: 'api' },
    start: 'x',
    steps: [
      { id: 'x', ...step },
      { id: 'end', type: 'exit' },
    ],
    edges: exits.map((exit) => ({ from: 'x', exit, to: 'end' })),
  });
  it('names the step or the entry missing it', () => {
    expect(problemOf(single({ type: 'audience-branch' }, ['yes', 'no']))).toBe(
      'Step "x": choose the audience',
    );
    expect(problemOf(single({ type: 'event-branch' }, ['yes', 'no']))).toBe('Step "x": choose the event');
    expect(problemOf(single({ type: 'wait-until-date' }, ['next']))).toBe(
      'Step "x": choose the date attribute',
    );
    expect(problemOf(single({ type: 'webhook', name: 'CRM' }, ['next', 'failed']))).toBe(
      'Step "CRM": enter the URL to call',
    );
    expect(problemOf(single({ type: 'webhook', url: 'https://crm.example/hook' }, ['next']))).toBe(
      'Step "x": the exit "failed" is not connected',
    );
    expect(problemOf(single({ type: 'wait-until', at: '25:00' }, ['next']))).toBe(
      'Step "x": a time of day is written HH:MM',
    );
    const entry = single({ type: 'wait', seconds: 0 }, ['next']);
    expect(problemOf({ ...entry, entry: { kind: 'audience' } })).toBe('Entry: choose the audience');
    expect(problemOf({ ...entry, entry: { kind: 'date' } })).toBe('Entry: choose the date attribute');
    expect(
      problemOf({ ...entry, entry: { kind: 'date', attribute: 'birthday' }, entryAudience: 'vip' }),
    ).toBeNull();
  });

  it('lets a loop pass through a wait until a time', () => {
    const looped = {
      entry: { kind: 'api' },
      start: 'morning',
      steps: [
        { id: 'morning', type: 'wait-until', at: '09:00' },
        { id: 'mark', type: 'update-attribute', attribute: 'seen', value: true },
      ],
      edges: [
        { from: 'morning', to: 'mark' },
        { from: 'mark', to: 'morning' },
      ],
    };
    expect(problemOf(looped)).toBeNull();
  });
});

describe('conditionsHold', () => {
  it('compares text, numbers, presence and lists', () => {
    const record = { plan: 'pro', total: '120', tags: ['vip'] };
    expect(conditionsHold([{ key: 'plan', op: '==', value: 'pro' }], record)).toBe(true);
    expect(conditionsHold([{ key: 'total', op: '>', value: 100 }], record)).toBe(true);
    expect(conditionsHold([{ key: 'total', op: '<', value: 100 }], record)).toBe(false);
    expect(conditionsHold([{ key: 'tags', op: 'contains', value: 'vip' }], record)).toBe(true);
    expect(conditionsHold([{ key: 'coupon', op: 'not-exists' }], record)).toBe(true);
    expect(conditionsHold([{ key: 'coupon', op: '==', value: 'x' }], record)).toBe(false);
    expect(conditionsHold([], record)).toBe(true);
  });
});

describe('checkJourney', () => {
  it('lists every problem with the step it is about, the first one as parseJourney answers it', () => {
    const steps = welcome.steps.map((step) => (step.id === 'hello' ? { ...step, sender: undefined } : step));
    const edges = welcome.edges.filter((edge) => !(edge.from === 'vip' && edge.exit === 'no'));
    const { problems } = checkJourney({ ...welcome, steps, edges });
    expect(problems).toEqual([
      { stepId: 'hello', message: 'Step "Welcome": choose a sender' },
      { stepId: 'vip', message: 'Step "vip": the exit "no" is not connected' },
    ]);
    expect(parseJourney({ ...welcome, steps, edges })).toEqual({
      ok: false,
      problem: 'Step "Welcome": choose a sender',
      stepId: 'hello',
    });
  });

  it('names the step whose shape is wrong', () => {
    const steps = welcome.steps.map((step) => (step.id === 'wait' ? { ...step, event: '' } : step));
    const { problems } = checkJourney({ ...welcome, steps });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ stepId: 'wait' });
    expect(problems[0].message).toMatch(/^Step "wait": /);
  });

  it('keeps a step position the canvas stores', () => {
    const steps = welcome.steps.map((step) => ({ ...step, position: { x: 1, y: 2 } }));
    const { definition } = checkJourney({ ...welcome, steps });
    expect(definition?.steps[0].position).toEqual({ x: 1, y: 2 });
  });
});
