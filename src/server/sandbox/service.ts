import { SANDBOX_MESSAGES, type RunTestAnswer } from '@shared/api/sandbox';
import type { AppContext } from '../context';
import { rateLimited } from '../http/errors';
import { requireRight, schemaIn } from '../items/scope';
import type { WorkspaceAccess } from '../workspaces/access';
import { runInSandbox } from './quickjs-runner';

/** The schema whose code the runs test (spec §2 test collection, admin domain). */
const TEST_COLLECTION = 'test-collection';
const RATE_WINDOW_MS = 60_000;

interface Window {
  start: number;
  count: number;
}

const windowsByContext = new WeakMap<AppContext, Map<string, Window>>();

/** Counts a run against the user's minute; 429 past SANDBOX_RATE_LIMIT. */
function takeRun(ctx: AppContext, userId: string) {
  let windows = windowsByContext.get(ctx);
  if (!windows) windowsByContext.set(ctx, (windows = new Map()));
  const now = Date.now();
  let window = windows.get(userId);
  if (!window || now - window.start >= RATE_WINDOW_MS) {
    if (windows.size > 10_000) windows.clear();
    window = { start: now, count: 0 };
    windows.set(userId, window);
  }
  if (window.count >= ctx.config.sandboxRateLimit) {
    const retryAfter = Math.ceil((window.start + RATE_WINDOW_MS - now) / 1000);
    throw rateLimited(SANDBOX_MESSAGES.rateLimited, retryAfter);
  }
  window.count++;
}

/**
 * Runs test code for a member who may edit the workspace's test collection (admin domain: workspace
 * managers with the edit right). Runs are counted per user per minute.
 */
export async function runTest(ctx: AppContext, access: WorkspaceAccess, fun: string): Promise<RunTestAnswer> {
  const scope = schemaIn(access, TEST_COLLECTION);
  const workspaceId = access.workspace.id;
  requireRight(scope, 'edit');
  takeRun(ctx, scope.user.id);
  const answer = await runInSandbox(fun);
  ctx.log.info({ workspaceId, userId: scope.user.id, ok: answer.ok, ms: answer.ms }, 'test run');
  return answer;
}
