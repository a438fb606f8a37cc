/**
 * Concurrent writes of one kind written by one statement, as PostgreSQL's own group commit does for
 * commits: a write that finds no batch of its group under way goes at once, alone; the writes that
 * arrive while one is under way wait for it and then go together in the next. Under load N writes then
 * cost one round trip, one statement and one commit instead of N; alone, a write waits for nothing.
 *
 * A batch is one transaction. When it fails, each of its writes is tried again alone, so a write's error
 * (a constraint it breaks, bad data) is its own and the others are written: no write is half done, none
 * fails for another's fault.
 */
export class WriteBatches<In, Out> {
  private readonly groups = new Map<string, Group<In, Out>>();

  /**
   * `write` writes a batch and answers one result per input, in their order.
   * `maxBatch` bounds a statement's size; the writes over it go in the batch after.
   */
  constructor(
    private readonly write: (inputs: In[]) => Promise<Out[]>,
    private readonly maxBatch = 200,
  ) {}

  /** Writes `input` with the others of its group (the writes of a group may go in one batch). */
  run(group: string, input: In): Promise<Out> {
    let found = this.groups.get(group);
    if (!found) this.groups.set(group, (found = { waiting: [], writing: false }));
    const entry = found;
    return new Promise<Out>((resolve, reject) => {
      entry.waiting.push({ input, resolve, reject });
      if (!entry.writing) void this.drain(group, entry);
    });
  }

  private async drain(group: string, entry: Group<In, Out>) {
    entry.writing = true;
    while (entry.waiting.length > 0) {
      const batch = entry.waiting.splice(0, this.maxBatch);
      await this.writeBatch(batch);
    }
    entry.writing = false;
    this.groups.delete(group);
  }

  private async writeBatch(batch: Waiting<In, Out>[]) {
    try {
      const results = await this.write(batch.map((waiting) => waiting.input));
      batch.forEach((waiting, i) => waiting.resolve(results[i]));
    } catch (error) {
      if (batch.length === 1) batch[0].reject(error);
      else for (const waiting of batch) await this.writeBatch([waiting]);
    }
  }
}

interface Waiting<In, Out> {
  input: In;
  resolve: (out: Out) => void;
  reject: (error: unknown) => void;
}

interface Group<In, Out> {
  waiting: Waiting<In, Out>[];
  writing: boolean;
}
