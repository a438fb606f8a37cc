import { z } from 'zod';
import { WorkspaceQuery } from '../media/contract';

/**
 * The HTTP contract of test runs (spec §7 `POST /fun/testCollection/runTest`): the body of an
 * async function runs in a QuickJS sandbox with no network, file system or process, under time and
 * memory limits, and answers what it returned, what it logged and how it failed.
 */

/** Wall-clock limit of one run, ms. */
export const SANDBOX_TIME_LIMIT_MS = 1000;
/** Heap limit of one run, bytes. */
export const SANDBOX_MEMORY_LIMIT_BYTES = 32 * 1024 * 1024;
/** Longest accepted code, characters. */
const SANDBOX_MAX_CODE = 100_000;
/** Console lines kept per run; more are dropped with a note. */
export const SANDBOX_MAX_LOGS = 200;

export const SANDBOX_MESSAGES = {
  timeLimit: `Time limit exceeded: the test ran longer than ${SANDBOX_TIME_LIMIT_MS} ms`,
  memoryLimit: `Memory limit exceeded: the test used more than ${SANDBOX_MEMORY_LIMIT_BYTES / 1024 / 1024} MB`,
  neverSettled: 'The test never finished: it awaits a promise that never settles',
  rateLimited: 'Too many test runs; try again in a minute',
  startupTimeout: 'The sandbox did not start in time; try again',
} as const;

export const RunTestQuery = WorkspaceQuery;

export const RunTestBody = z.object({
  fun: z
    .string({ error: 'fun is required' })
    .max(SANDBOX_MAX_CODE, { error: `fun holds at most ${SANDBOX_MAX_CODE} characters` })
    .describe('The body of an async function: `return` and `await` work'),
});
export type RunTestBody = z.infer<typeof RunTestBody>;

export const RunTestAnswer = z.object({
  ok: z.boolean().describe('True when the function returned (resolved) without an error'),
  result: z.unknown().describe('What the function returned, as JSON (undefined becomes null)'),
  logs: z.array(z.string()).describe('console.log/info/warn/error lines, in order'),
  error: z.string().nullable().describe('How the run failed, e.g. "ReferenceError: require is not defined"'),
  ms: z.number().describe('How long the run took, ms'),
});
export type RunTestAnswer = z.infer<typeof RunTestAnswer>;
