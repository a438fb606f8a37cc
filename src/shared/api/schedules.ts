import { z } from 'zod';

/** The HTTP contract of scheduled publishing. */

const SCHEDULE_ACTIONS = ['publish', 'unpublish'] as const;
const SCHEDULE_STATUSES = ['pending', 'running', 'done', 'refused', 'cancelled'] as const;

export const SCHEDULE_MESSAGES = {
  notFound: 'Schedule not found',
  inThePast: 'at: Choose a time in the future',
  notPending: 'This schedule has already run or was cancelled',
} as const;

export const CreateScheduleBody = z
  .object({
    stage: z.string().trim().min(1, { error: 'stage: Choose a stage' }).max(60),
    action: z.enum(SCHEDULE_ACTIONS).default('publish'),
    at: z.iso
      .datetime({ offset: true, error: 'at: Not a date and time' })
      .describe('When, with its offset (ISO 8601)'),
  })
  .strict();
export type CreateScheduleBody = z.input<typeof CreateScheduleBody>;

export const Schedule = z.object({
  id: z.string(),
  schema: z.string(),
  itemId: z.string(),
  stage: z.string(),
  action: z.enum(SCHEDULE_ACTIONS),
  at: z.string(),
  status: z.enum(SCHEDULE_STATUSES),
  reason: z.string().nullable().describe('Why it was refused when it came due'),
  ranAt: z.string().nullable(),
  createdBy: z.string(),
  createdByName: z.string(),
  createdAt: z.string(),
});
export type Schedule = z.infer<typeof Schedule>;

export const ScheduleList = z.object({ schedules: z.array(Schedule) });
export type ScheduleList = z.infer<typeof ScheduleList>;
