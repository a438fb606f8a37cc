import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import {
  SANDBOX_MAX_LOGS,
  SANDBOX_MEMORY_LIMIT_BYTES,
  SANDBOX_MESSAGES,
  SANDBOX_TIME_LIMIT_MS,
  type RunTestAnswer,
} from '@shared/api/sandbox';

/**
 * Test code runs in a fresh QuickJS runtime (WebAssembly, its own heap, no host objects but `console`:
 * no `require`, `process`, `fetch`, timers or files) inside a worker thread of its own. QuickJS's
 * interrupt handler ends JS loops at the deadline and its allocator refuses memory past the limit, but
 * work inside one builtin (a huge `repeat`, allocation near the limit) is not interruptible — measured:
 * up to 18 s — so the worker is terminated when the deadline plus a grace period passes, and the server's
 * own thread never waits on the sandbox.
 */
export interface SandboxLimits {
  timeLimitMs: number;
  memoryLimitBytes: number;
  /** How long the worker may take to load QuickJS before the run fails (STARTUP_MS by default). */
  startupMs?: number;
}

const DEFAULT_LIMITS: SandboxLimits = {
  timeLimitMs: SANDBOX_TIME_LIMIT_MS,
  memoryLimitBytes: SANDBOX_MEMORY_LIMIT_BYTES,
};
/** Time for the worker to answer after the deadline before it is ended. */
const GRACE_MS = 2000;
/**
 * Time for the worker to start and load QuickJS, counted apart from the test's own time limit: on a busy
 * machine compiling QuickJS's WebAssembly can take seconds, which is not the test's doing.
 */
const STARTUP_MS = 30_000;

const resolve = createRequire(import.meta.url).resolve;
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { getQuickJS } = require(${JSON.stringify(resolve('quickjs-emscripten'))});
const { fun, timeLimitMs, memoryLimitBytes, maxLogs, messages } = workerData;

const describe = (value) => {
  if (typeof value === 'string') return value;
  if (value === undefined) return 'undefined';
  try { return JSON.stringify(value) ?? String(value); } catch { return String(value); }
};

getQuickJS().then((quickJs) => {
  parentPort.postMessage({ ready: true });
  const started = performance.now();
  const deadline = Date.now() + timeLimitMs;
  const runtime = quickJs.newRuntime();
  runtime.setMemoryLimit(memoryLimitBytes);
  runtime.setMaxStackSize(1024 * 1024);
  let isInterrupted = false;
  runtime.setInterruptHandler(() => (isInterrupted = Date.now() > deadline));
  const vm = runtime.newContext();
  const logs = [];
  const finish = (answer) => parentPort.postMessage({ ...answer, logs, ms: Math.round((performance.now() - started) * 10) / 10 });
  const errorOf = (handle) => {
    const dumped = vm.dump(handle);
    handle.dispose();
    if (isInterrupted) return messages.timeLimit;
    if (dumped && typeof dumped === 'object' && 'message' in dumped) {
      if (dumped.message === 'out of memory') return messages.memoryLimit;
      return dumped.name ? dumped.name + ': ' + dumped.message : String(dumped.message);
    }
    return 'Uncaught ' + describe(dumped);
  };
  const fail = (handle) => finish({ ok: false, result: null, error: errorOf(handle) });

  const consoleObject = vm.newObject();
  for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
    const fn = vm.newFunction(level, (...args) => {
      if (logs.length > maxLogs) return;
      if (logs.length === maxLogs) return void logs.push('… more than ' + maxLogs + ' lines; the rest were dropped');
      const line = args.map((arg) => describe(vm.dump(arg))).join(' ');
      logs.push(level === 'log' || level === 'info' ? line : '[' + level + '] ' + line);
    });
    vm.setProp(consoleObject, level, fn);
    fn.dispose();
  }
  vm.setProp(vm.global, 'console', consoleObject);
  consoleObject.dispose();

  try {
    const evaluated = vm.evalCode('(async function test() {\\n' + fun + '\\n})()', 'test.js');
    if (evaluated.error) return fail(evaluated.error);
    const promise = evaluated.value;
    const jobs = runtime.executePendingJobs();
    if (jobs.error) return fail(jobs.error);
    const state = vm.getPromiseState(promise);
    promise.dispose();
    if (state.type === 'pending') return finish({ ok: false, result: null, error: messages.neverSettled });
    if (state.type === 'rejected') return fail(state.error);
    const dumped = vm.dump(state.value);
    state.value.dispose();
    let result = null;
    try { result = dumped === undefined ? null : JSON.parse(JSON.stringify(dumped) ?? 'null'); } catch { result = String(dumped); }
    finish({ ok: true, result, error: null });
  } catch (err) {
    // The allocator can fail outside JS code too (e.g. while copying a huge result out).
    finish({ ok: false, result: null, error: /memory/i.test(String(err && err.message)) ? messages.memoryLimit : String(err) });
  }
});
`;

/** Runs the body of an async function in the sandbox and answers `{ok, result, logs, error, ms}`. */
export function runInSandbox(fun: string, limits: SandboxLimits = DEFAULT_LIMITS): Promise<RunTestAnswer> {
  let started = performance.now();
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { fun, ...limits, maxLogs: SANDBOX_MAX_LOGS, messages: SANDBOX_MESSAGES },
    resourceLimits: { maxOldGenerationSizeMb: 64 + Math.ceil(limits.memoryLimitBytes / 1024 / 1024) },
  });
  const elapsed = () => Math.round((performance.now() - started) * 10) / 10;
  const failed = (error: string): RunTestAnswer => ({
    ok: false,
    result: null,
    logs: [],
    error,
    ms: elapsed(),
  });
  return new Promise<RunTestAnswer>((settle) => {
    let isSettled = false;
    const done = (answer: RunTestAnswer) => {
      if (isSettled) return;
      isSettled = true;
      clearTimeout(timer);
      void worker.terminate();
      settle(answer);
    };
    let timer = setTimeout(
      () => done(failed(SANDBOX_MESSAGES.startupTimeout)),
      limits.startupMs ?? STARTUP_MS,
    );
    worker.on('message', (message: RunTestAnswer | { ready: true }) => {
      if (!('ready' in message)) return done(message);
      // QuickJS is loaded: from here on the test's own time counts.
      started = performance.now();
      clearTimeout(timer);
      timer = setTimeout(() => done(failed(SANDBOX_MESSAGES.timeLimit)), limits.timeLimitMs + GRACE_MS);
    });
    worker.once('error', (err) =>
      done(
        failed(/memory/i.test(err.message) ? SANDBOX_MESSAGES.memoryLimit : `Sandbox failed: ${err.message}`),
      ),
    );
    worker.once('exit', () => done(failed('Sandbox failed: the worker stopped')));
  });
}
