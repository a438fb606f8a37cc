import type { ComponentType } from 'react';
import {
  IconArrowsSplit,
  IconCalendarEvent,
  IconClockHour4,
  IconClockPlay,
  IconDoorExit,
  IconGitBranch,
  IconHourglass,
  IconMail,
  IconPencil,
  IconPuzzle,
  IconUsersGroup,
  IconActivity,
  IconWebhook,
  type Icon,
} from '@tabler/icons-react';
import type { CanvasStep } from './definition';
import { formatDuration } from './duration-input';
import {
  AudienceBranchStepForm,
  EventBranchStepForm,
  WebhookStepForm,
} from './step-forms/audience-step-forms';
import { BranchStepForm } from './step-forms/branch-step-form';
import { EmailStepForm } from './step-forms/email-step-form';
import { SplitStepForm } from './step-forms/split-step-form';
import type { StepFormProps } from './step-forms/types';
import { WaitUntilDateStepForm, WaitUntilStepForm, WEEKDAYS } from './step-forms/schedule-step-forms';
import { UnknownStepForm } from './step-forms/unknown-step-form';
import { UpdateAttributeStepForm } from './step-forms/update-attribute-step-form';
import { WaitForEventStepForm, WaitStepForm } from './step-forms/wait-step-forms';

const DAY = 24 * 3600;

export interface StepKind {
  title: string;
  icon: Icon;
  /** The properties of a new step of this kind. */
  create: () => Omit<CanvasStep, 'id' | 'type'>;
  /** Edits the kind's own properties; none: the step has nothing but its name. */
  Form?: ComponentType<StepFormProps>;
  /** One line on the step's node saying what it does. */
  summary?: (step: CanvasStep) => string;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');
const offset = (days: unknown) => {
  const n = typeof days === 'number' ? days : 0;
  if (n === 0) return 'on';
  return `${Math.abs(n)} day${Math.abs(n) === 1 ? '' : 's'} ${n > 0 ? 'after' : 'before'}`;
};
const count = (value: unknown, noun: string) => {
  const n = Array.isArray(value) ? value.length : 0;
  return n === 0 ? `No ${noun}s` : `${n} ${noun}${n === 1 ? '' : 's'}`;
};

/** The kinds of step the palette offers, each with its property form: adding a kind is one entry here. */
export const STEP_KINDS: Record<string, StepKind> = {
  email: {
    title: 'Send email',
    icon: IconMail,
    create: () => ({}),
    Form: EmailStepForm,
    summary: (step) => (step.email ? text(step.subject) || 'Template chosen' : 'No template chosen'),
  },
  wait: {
    title: 'Wait',
    icon: IconHourglass,
    create: () => ({ seconds: DAY }),
    Form: WaitStepForm,
    summary: (step) => formatDuration(step.seconds),
  },
  'wait-until': {
    title: 'Wait until',
    icon: IconClockPlay,
    create: () => ({ at: '09:00', weekdays: [] }),
    Form: WaitUntilStepForm,
    summary: (step) => {
      const days = Array.isArray(step.weekdays) ? (step.weekdays as number[]) : [];
      return `${text(step.at) || '09:00'}, ${days.length ? days.map((day) => WEEKDAYS[day]).join(' ') : 'any day'}`;
    },
  },
  'wait-until-date': {
    title: 'Wait until date',
    icon: IconCalendarEvent,
    create: () => ({ offsetDays: 0, at: '09:00', yearly: false }),
    Form: WaitUntilDateStepForm,
    summary: (step) =>
      `${offset(step.offsetDays)} ${text(step.attribute) || '?'} at ${text(step.at) || '09:00'}${step.yearly ? ', yearly' : ''}`,
  },
  'wait-for-event': {
    title: 'Wait for event',
    icon: IconClockHour4,
    create: () => ({ event: '', conditions: [], timeoutSeconds: DAY }),
    Form: WaitForEventStepForm,
    summary: (step) => `“${text(step.event) || '?'}”, at most ${formatDuration(step.timeoutSeconds)}`,
  },
  branch: {
    title: 'Branch',
    icon: IconGitBranch,
    create: () => ({ conditions: [] }),
    Form: BranchStepForm,
    summary: (step) => count(step.conditions, 'condition'),
  },
  'audience-branch': {
    title: 'Audience branch',
    icon: IconUsersGroup,
    create: () => ({}),
    Form: AudienceBranchStepForm,
    summary: (step) => (step.audience ? 'In the audience?' : 'No audience chosen'),
  },
  'event-branch': {
    title: 'Event branch',
    icon: IconActivity,
    create: () => ({ conditions: [], withinDays: 30 }),
    Form: EventBranchStepForm,
    summary: (step) =>
      `“${text(step.event) || '?'}” in the last ${typeof step.withinDays === 'number' ? step.withinDays : 30} days`,
  },
  split: {
    title: 'Random split',
    icon: IconArrowsSplit,
    create: () => ({
      paths: [
        { key: 'a', percent: 50 },
        { key: 'b', percent: 50 },
      ],
      holdoutPercent: 0,
    }),
    Form: SplitStepForm,
    summary: (step) =>
      (Array.isArray(step.paths) ? (step.paths as { key: string; percent: number }[]) : [])
        .map((path) => `${path.key} ${path.percent}%`)
        .concat(
          typeof step.holdoutPercent === 'number' && step.holdoutPercent > 0
            ? [`holdout ${step.holdoutPercent}%`]
            : [],
        )
        .join(' · '),
  },
  'update-attribute': {
    title: 'Update attribute',
    icon: IconPencil,
    create: () => ({ attribute: '', value: null }),
    Form: UpdateAttributeStepForm,
    summary: (step) =>
      `${text(step.attribute) || '?'} = ${step.value === null ? 'empty' : String(step.value)}`,
  },
  webhook: {
    title: 'Webhook',
    icon: IconWebhook,
    create: () => ({}),
    Form: WebhookStepForm,
    summary: (step) => text(step.url) || 'No URL',
  },
  exit: { title: 'Exit', icon: IconDoorExit, create: () => ({}), summary: () => 'The journey ends' },
};

/** A kind this screen does not know (a newer engine's): drawn with its type and its raw properties. */
const UNKNOWN_STEP_KIND: StepKind = {
  title: 'Step',
  icon: IconPuzzle,
  create: () => ({}),
  Form: UnknownStepForm,
};

export const stepKindOf = (type: string): StepKind =>
  Object.hasOwn(STEP_KINDS, type) ? STEP_KINDS[type] : { ...UNKNOWN_STEP_KIND, title: type };
