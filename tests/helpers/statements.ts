import type { Db } from '@server/db/client';

type Run = (text: string, ...rest: unknown[]) => unknown;

/**
 * The statements the driver under `db` runs (drizzle's queries and `queryRows`' alike: PGlite's `query`,
 * postgres.js's `unsafe`) while `work` runs, by their text, with what `work` answered. Reads by id
 * pipelined on a connection of their own (`readPipelined`) on PostgreSQL are not among them.
 */
export async function statementsDuring<T>(db: Db, work: () => Promise<T>) {
  const client = (db as unknown as { session: { client: Record<string, Run> } }).session.client;
  const method = 'unsafe' in client ? 'unsafe' : 'query';
  // Read past postgres.js's preparing proxy (client.ts), which answers `unsafe` with a wrapper of its own.
  const own = Object.getOwnPropertyDescriptor(client, method);
  const run = (own?.value ?? client[method]) as Run;
  const statements: string[] = [];
  client[method] = function (this: unknown, text, ...rest) {
    statements.push(text);
    return run.call(this, text, ...rest);
  };
  try {
    return { result: await work(), statements };
  } finally {
    if (own) Object.defineProperty(client, method, own);
    else delete client[method];
  }
}
