import { useState, type ComponentType } from 'react';
import { JourneyStep } from '@shared/api/journeys';
import { checkJourney, exitsOf } from '@shared/journeys/validate';
import type { Reference } from '@shared/schemas/types';
import { installFakeApi } from '@web/test/fake-api';
import { click, findByText, waitFor } from '@web/test/render';
import { FieldEnvironmentContext, useFieldEnvironment } from '../fields/field-environment';
import { changeValue, pickOption, renderUi } from '../item-form/test-utils';
import {
  readDefinition,
  writeDefinition,
  type CanvasDefinition,
  type CanvasEntry,
  type CanvasStep,
} from './definition';
import { ENTRY_KINDS } from './entry-forms';
import { EntryPanel } from './entry-panel';
import { toGraph, type StepNode } from './graph';
import { STEP_KINDS } from './step-kinds';

const journey: CanvasDefinition = {
  entry: {
    kind: 'date',
    attribute: 'birthday',
    offsetDays: -1,
    at: '08:30',
    timeZone: 'profile',
    yearly: true,
  },
  entryAudience: 'vip',
  start: 'until',
  steps: [
    { id: 'until', type: 'wait-until', at: '10:00', weekdays: [1, 5] },
    { id: 'date', type: 'wait-until-date', attribute: 'renewal', offsetDays: 3, at: '09:00', yearly: false },
    { id: 'member', type: 'audience-branch', audience: 'vip' },
    { id: 'bought', type: 'event-branch', event: 'purchase', conditions: [], withinDays: 7 },
    { id: 'hook', type: 'webhook', url: 'https://example.com/hook' },
    { id: 'mail', type: 'email', email: 'e1', sender: 's1', deferLimitSeconds: 7200 },
    { id: 'end', type: 'exit' },
  ],
  edges: [
    { from: 'until', exit: 'next', to: 'date' },
    { from: 'date', exit: 'next', to: 'member' },
    { from: 'member', exit: 'yes', to: 'bought' },
    { from: 'member', exit: 'no', to: 'end' },
    { from: 'bought', exit: 'yes', to: 'hook' },
    { from: 'bought', exit: 'no', to: 'end' },
    { from: 'hook', exit: 'next', to: 'mail' },
    { from: 'hook', exit: 'failed', to: 'end' },
    { from: 'mail', exit: 'next', to: 'end' },
  ],
};

describe('the new kinds on the graph', () => {
  it('round-trips each kind and draws the exits the engine gives it', () => {
    const read = readDefinition(writeDefinition(journey));
    expect(read.ok && read.definition).toEqual(journey);
    expect(checkJourney(journey).problems).toEqual([]);
    const exits = Object.fromEntries(
      toGraph(journey).nodes.map((node) => [node.id, (node.data as StepNode['data']).exits]),
    );
    expect(exits).toMatchObject({
      until: ['next'],
      date: ['next'],
      member: ['yes', 'no'],
      bought: ['yes', 'no'],
      hook: ['next', 'failed'],
      mail: ['next'],
    });
  });

  it('creates steps and entries of every kind in the shape the engine reads', () => {
    for (const [type, kind] of Object.entries(STEP_KINDS)) {
      const step: CanvasStep = { id: 'x', type, ...kind.create() };
      const complete = { ...step, attribute: step.attribute || 'a', event: step.event || 'e' };
      const parsed = JourneyStep.safeParse(complete);
      expect(parsed.success, type).toBe(true);
      const node = toGraph({ ...journey, start: 'x', steps: [complete], edges: [] }).nodes[1];
      expect((node.data as StepNode['data']).exits, type).toEqual(exitsOf(parsed.data!));
    }
    for (const kind of ['audience', 'date']) {
      const entry = ENTRY_KINDS[kind].create();
      expect(checkJourney({ ...journey, entry }).problems[0]?.message).toMatch(/^Entry: choose the/);
    }
  });

  it('sums up each new step on its node', () => {
    const summary = (id: string) => {
      const step = journey.steps.find((each) => each.id === id)!;
      return STEP_KINDS[step.type].summary!(step);
    };
    expect(summary('until')).toBe('10:00, Mon Fri');
    expect(summary('date')).toBe('3 days after renewal at 09:00');
    expect(summary('bought')).toBe('“purchase” in the last 7 days');
    expect(summary('hook')).toBe('https://example.com/hook');
  });
});

const audiences: Reference[] = [
  { id: 'vip', schemaType: 'audience', label: 'VIPs' },
  { id: 'lapsed', schemaType: 'audience', label: 'Lapsed' },
];

/** The input a visible label names. */
const input = (text: string) => {
  const label = Array.from(document.querySelectorAll('label')).find(
    (each) => each.textContent?.trim() === text,
  );
  if (!label) throw new Error(`No label "${text}"`);
  return document.getElementById(label.htmlFor) as HTMLInputElement;
};

function WithSearch({ children }: { children: React.ReactNode }) {
  const environment = useFieldEnvironment();
  return (
    <FieldEnvironmentContext.Provider
      value={{
        ...environment,
        referenceSearch: async (types) => (types.includes('audience') ? audiences : []),
      }}
    >
      {children}
    </FieldEnvironmentContext.Provider>
  );
}

/** A step form that keeps what it is given; `latest` is the last step sent. */
async function renderStepForm(step: CanvasStep) {
  const sent: CanvasStep[] = [];
  const Form = STEP_KINDS[step.type].Form as ComponentType<{
    step: CanvasStep;
    onChange: (step: CanvasStep) => void;
    readOnly: boolean;
    workspaceId: string;
  }>;
  function Harness() {
    const [value, setValue] = useState(step);
    return (
      <Form
        step={value}
        readOnly={false}
        workspaceId="acme"
        onChange={(next) => {
          sent.push(next);
          setValue(next);
        }}
      />
    );
  }
  await renderUi(
    <WithSearch>
      <Harness />
    </WithSearch>,
  );
  return { latest: () => sent.at(-1) };
}

async function renderEntryPanel(definition: CanvasDefinition) {
  let latest = definition;
  function Harness() {
    const [value, setValue] = useState(definition);
    return (
      <EntryPanel
        definition={value}
        readOnly={false}
        workspaceId="acme"
        onChange={(next) => {
          latest = next;
          setValue(next);
        }}
      />
    );
  }
  await renderUi(
    <WithSearch>
      <Harness />
    </WithSearch>,
  );
  return { latest: () => latest };
}

describe('the new kinds’ forms', () => {
  beforeEach(() =>
    installFakeApi({
      'GET /api/v1/workspaces/acme/audiences/definitions': () => [
        200,
        {
          attributes: [
            { id: 'a1', label: 'Birthday', key: 'birthday', type: 'date', options: [] },
            { id: 'a2', label: 'Plan', key: 'plan', type: 'string', options: [] },
          ],
          events: [],
          audiences: [],
        },
      ],
    }),
  );
  afterEach(() => vi.unstubAllGlobals());

  it('wait until: the time and the weekdays', async () => {
    const form = await renderStepForm({ id: 'w', type: 'wait-until', at: '09:00', weekdays: [] });
    await changeValue(input('Until'), '18:15');
    await click(await findByText('Wed'));
    expect(form.latest()).toMatchObject({ at: '18:15', weekdays: [3] });
  });

  it('wait until a date: a date attribute only, the offset', async () => {
    const form = await renderStepForm({
      id: 'd',
      type: 'wait-until-date',
      offsetDays: 0,
      at: '09:00',
      yearly: false,
    });
    await changeValue(input('Days after the date'), '-2');
    await waitFor(() => pickOption(input('Date attribute'), 'Birthday'));
    expect(document.body.textContent).not.toContain('Plan');
    expect(form.latest()).toMatchObject({ attribute: 'birthday', offsetDays: -2, at: '09:00' });
  });

  it('audience branch, event branch, webhook and the email defer limit', async () => {
    const branch = await renderStepForm({ id: 'a', type: 'audience-branch' });
    await waitFor(() => pickOption(input('Members of this audience take “yes”'), 'Lapsed'));
    expect(branch.latest()).toMatchObject({ audience: 'lapsed' });

    const events = await renderStepForm({ id: 'e', type: 'event-branch', conditions: [], withinDays: 30 });
    await changeValue(input('Event'), 'purchase');
    await changeValue(input('Within the last days'), '14');
    expect(events.latest()).toMatchObject({ event: 'purchase', withinDays: 14 });

    const hook = await renderStepForm({ id: 'h', type: 'webhook' });
    await changeValue(input('URL'), 'https://example.com/x');
    expect(hook.latest()).toMatchObject({ url: 'https://example.com/x' });

    const mail = await renderStepForm({ id: 'm', type: 'email' });
    await changeValue(input('Held back at most'), '3');
    expect(mail.latest()).toMatchObject({ deferLimitSeconds: 3 * 86400 });
  });

  it('the audience entry, the date entry and the entry audience', async () => {
    const entry: CanvasEntry = ENTRY_KINDS.audience.create();
    const panel = await renderEntryPanel({ ...journey, entry, entryAudience: undefined });
    await waitFor(() => pickOption(input('Audience'), 'VIPs'));
    await click(await findByText('Leaving it'));
    await waitFor(() => pickOption(input('Only members of'), 'Lapsed'));
    expect(panel.latest()).toMatchObject({
      entry: { kind: 'audience', audience: 'vip', on: 'leave' },
      entryAudience: 'lapsed',
    });

    const dates = await renderEntryPanel({ ...journey, entry: ENTRY_KINDS.date.create() });
    await waitFor(() => pickOption(input('Date attribute'), 'Birthday'));
    await changeValue(input('At'), '07:45');
    await waitFor(() => pickOption(input('Time zone'), "The workspace's"));
    expect(dates.latest().entry).toEqual({
      kind: 'date',
      attribute: 'birthday',
      offsetDays: 0,
      at: '07:45',
      timeZone: 'workspace',
      yearly: true,
    });
  });
});
