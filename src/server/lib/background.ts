import type { FastifyBaseLogger } from 'fastify';

/**
 * Work done after the answer has left (mail, its link's token): an answer must not take longer, or say
 * more, when an address has an account. Failures are logged, never lost silently; `idle()` waits for
 * what is under way (the server's close does, and tests do before reading the outbox).
 */
export class BackgroundWork {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly log: FastifyBaseLogger) {}

  /** Starts `task` on a later turn of the event loop, after the caller has answered. */
  run(what: string, task: () => Promise<void>) {
    const done: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(task)
      .catch((err: unknown) => this.log.error({ err }, `${what} failed`))
      .finally(() => this.pending.delete(done));
    this.pending.add(done);
  }

  /** Resolves once no work is under way (including work started meanwhile). */
  async idle() {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }
}
