import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { ZxcvbnVerdict } from '@shared/text/password-strength';

/**
 * zxcvbn in a worker thread that ends after ten seconds without work (a sign-up judges one password;
 * a retry after a refusal starts it again, about 0.2 s of loading). Its dictionaries take about 60 MB;
 * loaded in the server's own thread they would stay for good after the first sign-up, in a worker
 * they go with it (measured: +76 MB while alive, +14 MB after it ends). The worker is plain
 * JavaScript evaluated from a string, so it runs the same from the sources, the bundle and the tests.
 */
const IDLE_MS = 10_000;

const resolve = createRequire(import.meta.url).resolve;
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { ZxcvbnFactory } = require(${JSON.stringify(resolve('@zxcvbn-ts/core'))});
const common = require(${JSON.stringify(resolve('@zxcvbn-ts/language-common'))});
const english = require(${JSON.stringify(resolve('@zxcvbn-ts/language-en'))});
const zxcvbn = new ZxcvbnFactory({
  translations: english.translations,
  graphs: common.adjacencyGraphs,
  dictionary: { ...common.dictionary, ...english.dictionary },
});
parentPort.on('message', ({ id, password, inputs }) => {
  const { score, feedback } = zxcvbn.check(password, inputs);
  parentPort.postMessage({ id, score, feedback });
});
`;

interface Pending {
  resolve: (verdict: ZxcvbnVerdict) => void;
  reject: (err: Error) => void;
  /** The worker judging it: a worker that ends fails only its own requests, not a successor's. */
  worker: Worker;
}

let worker: Worker | undefined;
let idleTimer: NodeJS.Timeout | undefined;
let nextId = 0;
const pending = new Map<number, Pending>();

function failRequestsOf(ended: Worker, err: Error) {
  for (const [id, waiting] of pending) {
    if (waiting.worker !== ended) continue;
    waiting.reject(err);
    pending.delete(id);
  }
}

function startWorker(): Worker {
  const started = new Worker(WORKER_SOURCE, { eval: true });
  started.unref();
  started.on('message', ({ id, score, feedback }: ZxcvbnVerdict & { id: number }) => {
    pending.get(id)?.resolve({ score, feedback });
    pending.delete(id);
  });
  started.on('error', (err) => failRequestsOf(started, err));
  started.on('exit', () => {
    if (worker === started) worker = undefined;
    failRequestsOf(started, new Error('the password worker stopped'));
  });
  return started;
}

/** zxcvbn's verdict on a password, given words a guesser would try first. */
export function zxcvbnInWorker(password: string, inputs: string[]): Promise<ZxcvbnVerdict> {
  clearTimeout(idleTimer);
  const judging = (worker ??= startWorker());
  const id = nextId++;
  const verdict = new Promise<ZxcvbnVerdict>((resolve, reject) =>
    pending.set(id, { resolve, reject, worker: judging }),
  );
  judging.postMessage({ id, password, inputs });
  return verdict.finally(() => {
    if (pending.size > 0) return;
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => void stopPasswordWorker(), IDLE_MS).unref();
  });
}

/** Ends the worker now (it starts again with the next password). */
export async function stopPasswordWorker() {
  clearTimeout(idleTimer);
  const running = worker;
  worker = undefined;
  await running?.terminate();
}
