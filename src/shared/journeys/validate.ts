import { JourneyDefinition, type JourneyStep } from '../api/journeys';

/** The named exits of a step, each of which an edge must join to the next step. */
export function exitsOf(step: JourneyStep): string[] {
  switch (step.type) {
    case 'wait-for-event':
      return ['event', 'timeout'];
    case 'branch':
    case 'audience-branch':
    case 'event-branch':
      return ['yes', 'no'];
    case 'webhook':
      return ['next', 'failed'];
    case 'split':
      return step.paths.map((path) => path.key);
    case 'exit':
      return [];
    default:
      return ['next'];
  }
}

/** Steps a loop may pass through without running hot: they hold the profile for a time. */
const holds = (step: JourneyStep) =>
  (step.type === 'wait' && step.seconds > 0) ||
  step.type === 'wait-for-event' ||
  step.type === 'wait-until' ||
  (step.type === 'wait-until-date' && step.yearly);

const label = (step: JourneyStep) => `Step "${step.name?.trim() || step.id}"`;

const isWebUrl = (text: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
};

function stepProblem(step: JourneyStep): string | null {
  if (step.type === 'email' && !step.email) return `${label(step)}: choose the email template to send`;
  if (step.type === 'email' && !step.sender) return `${label(step)}: choose a sender`;
  if (step.type === 'audience-branch' && !step.audience) return `${label(step)}: choose the audience`;
  if (step.type === 'event-branch' && !step.event) return `${label(step)}: choose the event`;
  if (step.type === 'wait-until-date' && !step.attribute) return `${label(step)}: choose the date attribute`;
  if (step.type === 'webhook' && !step.url?.trim()) return `${label(step)}: enter the URL to call`;
  if (step.type === 'webhook' && !isWebUrl(step.url!.trim()))
    return `${label(step)}: the URL must start with http:// or https://`;
  if (step.type === 'split') {
    const keys = new Set(step.paths.map((path) => path.key));
    if (keys.size !== step.paths.length) return `${label(step)}: each path needs a key of its own`;
    const total = step.paths.reduce((sum, path) => sum + path.percent, step.holdoutPercent);
    if (Math.abs(total - 100) > 1e-9) return `${label(step)}: the paths and the holdout must add up to 100%`;
  }
  return null;
}

/** A step on a loop in which no step holds the profile, or null (a depth-first search over the graph). */
function unheldLoop(steps: Map<string, JourneyStep>, next: Map<string, string[]>): JourneyStep | null {
  const state = new Map<string, 'open' | 'done'>();
  const visit = (id: string): string | null => {
    state.set(id, 'open');
    for (const to of next.get(id) ?? []) {
      const target = steps.get(to);
      if (!target || holds(target)) continue;
      if (state.get(to) === 'open') return to;
      if (!state.has(to)) {
        const found = visit(to);
        if (found) return found;
      }
    }
    state.set(id, 'done');
    return null;
  };
  for (const [id, step] of steps) {
    if (holds(step) || state.has(id)) continue;
    const found = visit(id);
    if (found) return steps.get(found)!;
  }
  return null;
}

function entryProblem({ entry }: JourneyDefinition): string | null {
  if (entry.kind === 'audience' && !entry.audience) return 'Entry: choose the audience';
  if (entry.kind === 'date' && !entry.attribute) return 'Entry: choose the date attribute';
  return null;
}

/** A problem of a journey's definition, with the step it is about when it is about one. */
export interface JourneyProblem {
  message: string;
  stepId?: string;
}

/** Every problem of a parsed definition's graph and steps, the most basic first. */
function journeyProblems(definition: JourneyDefinition): JourneyProblem[] {
  const steps = new Map<string, JourneyStep>();
  for (const step of definition.steps) {
    if (steps.has(step.id))
      return [{ stepId: step.id, message: `${label(step)}: another step has the id "${step.id}"` }];
    steps.set(step.id, step);
  }
  const problems: JourneyProblem[] = [];
  const entry = entryProblem(definition);
  if (entry) problems.push({ message: entry });
  const hasStart = steps.has(definition.start);
  if (!hasStart) problems.push({ message: `The first step "${definition.start}" does not exist` });
  const joined = new Map<string, string>();
  const next = new Map<string, string[]>();
  for (const edge of definition.edges) {
    const from = steps.get(edge.from);
    if (!from) {
      problems.push({ message: `A connection leaves step "${edge.from}", which does not exist` });
      continue;
    }
    const about = (message: string) => problems.push({ stepId: from.id, message });
    const key = `${edge.from}\n${edge.exit}`;
    if (!exitsOf(from).includes(edge.exit)) about(`${label(from)}: it has no exit "${edge.exit}"`);
    else if (!steps.has(edge.to))
      about(`${label(from)}: the exit "${edge.exit}" leads to step "${edge.to}", which does not exist`);
    else if (joined.has(key)) about(`${label(from)}: the exit "${edge.exit}" is connected more than once`);
    else {
      joined.set(key, edge.to);
      next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
    }
  }
  for (const step of steps.values()) {
    const problem = stepProblem(step);
    if (problem) problems.push({ stepId: step.id, message: problem });
    for (const open of exitsOf(step).filter((exit) => !joined.has(`${step.id}\n${exit}`)))
      problems.push({ stepId: step.id, message: `${label(step)}: the exit "${open}" is not connected` });
  }
  if (hasStart) {
    const reached = new Set([definition.start]);
    const stack = [definition.start];
    while (stack.length) {
      for (const to of next.get(stack.pop()!) ?? []) {
        if (reached.has(to)) continue;
        reached.add(to);
        stack.push(to);
      }
    }
    for (const stray of definition.steps.filter((step) => !reached.has(step.id)))
      problems.push({
        stepId: stray.id,
        message: `${label(stray)}: it cannot be reached from the first step`,
      });
  }
  const loop = unheldLoop(steps, next);
  if (loop) problems.push({ stepId: loop.id, message: `${label(loop)}: it is on a loop without a wait` });
  return problems;
}

export type ParsedJourney =
  { ok: true; definition: JourneyDefinition } | { ok: false; problem: string; stepId?: string };

/**
 * Every problem of a journey's definition (the item's JSON text, or the parsed value): its shape first;
 * when the shape holds, its graph (every exit joined to one step, every step reachable, no loop without
 * a wait, each step complete). Each problem names the step it is about.
 */
export function checkJourney(value: unknown): { definition?: JourneyDefinition; problems: JourneyProblem[] } {
  let raw = value;
  if (typeof value === 'string') {
    try {
      raw = JSON.parse(value);
    } catch {
      return { problems: [{ message: 'it is not JSON' }] };
    }
  }
  const parsed = JourneyDefinition.safeParse(raw ?? {});
  if (!parsed.success) {
    const steps = (raw as { steps?: { id?: unknown }[] } | null)?.steps;
    const problems = parsed.error.issues.map((issue): JourneyProblem => {
      const [first, index] = issue.path;
      const id = first === 'steps' && typeof index === 'number' ? steps?.[index]?.id : undefined;
      if (typeof id === 'string') return { stepId: id, message: `Step "${id}": ${issue.message}` };
      return { message: `${issue.path.join('.') || 'definition'}: ${issue.message}` };
    });
    return { problems };
  }
  return { definition: parsed.data, problems: journeyProblems(parsed.data) };
}

/** Reads a journey's definition and checks it (see checkJourney), answering the first problem. */
export function parseJourney(value: unknown): ParsedJourney {
  const { definition, problems } = checkJourney(value);
  const [first] = problems;
  if (first || !definition)
    return { ok: false, problem: first?.message ?? 'definition: missing', ...pick(first) };
  return { ok: true, definition };
}

const pick = (problem: JourneyProblem | undefined) => (problem?.stepId ? { stepId: problem.stepId } : {});
