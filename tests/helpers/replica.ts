import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import postgres from 'postgres';
import { parseLsn } from '@server/journal/replica-lag';

const run = promisify(execFile);

export interface Replica {
  /** The URL of `database` on the replica (the whole cluster is replicated). */
  urlOf(database: string): string;
  /** Resolves once the replica has replayed everything the primary had written when it was called. */
  waitUntilReplayed(): Promise<void>;
  stop(): Promise<void>;
}

/** The longest a replica may take to replay what the primary wrote. */
const REPLAY_BOUND_MS = 15_000;
const REPLICATION_RULE = 'host replication all 127.0.0.1/32 trust';

/**
 * A hot standby of the PostgreSQL server at `primaryUrl` on this machine, streaming from it: a base
 * backup in a temporary directory, started on a free port as the `postgres` user when the tests run as
 * root (PostgreSQL refuses root). Lets the primary's loopback address take replication connections if
 * it does not yet (its pg_hba.conf, reloaded); it needs wal_level replica and free WAL senders.
 */
export async function startReplica(primaryUrl: string): Promise<Replica> {
  const primary = postgres(primaryUrl, { max: 1, onnotice: () => {} });
  try {
    const bin = await binDir(primary);
    const asOwner = ownerRunner();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-replica-'));
    await asOwner.own(dir);
    const data = path.join(dir, 'data');
    const source = new URL(primaryUrl);
    const backup = [
      path.join(bin, 'pg_basebackup'),
      ...['-h', source.hostname, '-p', source.port || '5432', '-U', decodeURIComponent(source.username)],
      ...['-D', data, '-R', '-X', 'stream', '-c', 'fast', '--no-sync', '--no-manifest'],
    ];
    await asOwner.run(backup).catch(async (err: { stderr?: string }) => {
      if (!/no pg_hba\.conf entry for replication/.test(err.stderr ?? '')) throw err;
      await allowReplication(primaryUrl);
      await asOwner.run(backup);
    });
    const port = await freePort();
    await writeStandbyConfig(primary, data, dir, port);
    await asOwner.own(dir);
    const log = path.join(dir, 'postgres.log');
    await asOwner.run([path.join(bin, 'pg_ctl'), '-D', data, '-l', log, '-w', '-t', '60', 'start']);
    return replicaOn(primaryUrl, port, async () => {
      await asOwner.run([path.join(bin, 'pg_ctl'), '-D', data, '-m', 'immediate', '-w', 'stop']);
      fs.rmSync(dir, { recursive: true, force: true });
    });
  } finally {
    await primary.end();
  }
}

function replicaOn(primaryUrl: string, port: number, stop: () => Promise<void>): Replica {
  const url = new URL(primaryUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  url.pathname = '/postgres';
  const primary = postgres(primaryUrl, { max: 1, onnotice: () => {} });
  const replica = postgres(url.toString(), { max: 1, onnotice: () => {} });
  return {
    urlOf(database) {
      const of = new URL(url);
      of.pathname = `/${database}`;
      return of.toString();
    },
    async waitUntilReplayed() {
      // Flushed: everything committed so far, and all a standby can receive.
      const [{ lsn }] = await primary`select pg_current_wal_flush_lsn()::text as lsn`;
      const target = parseLsn(lsn);
      const deadline = Date.now() + REPLAY_BOUND_MS;
      for (;;) {
        const [{ replayed }] = await replica`select pg_last_wal_replay_lsn()::text as replayed`;
        if (parseLsn(replayed) >= target) return;
        if (Date.now() > deadline) throw new Error(`The replica replayed ${replayed}, not ${lsn}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    async stop() {
      await Promise.all([primary.end(), replica.end()]);
      await stop();
    },
  };
}

/** The binaries of the primary's major version (Debian keeps them off PATH), else those on PATH. */
async function binDir(primary: postgres.Sql): Promise<string> {
  const [{ version }] = await primary`select current_setting('server_version_num')::int / 10000 as version`;
  const debian = `/usr/lib/postgresql/${version}/bin`;
  return fs.existsSync(path.join(debian, 'pg_basebackup')) ? debian : '';
}

/** Runs the cluster's commands as `postgres` when this process is root; as itself otherwise. */
function ownerRunner() {
  const isRoot = process.getuid?.() === 0;
  return {
    async own(dir: string) {
      if (isRoot) await run('chown', ['-R', 'postgres:postgres', dir]);
    },
    async run([command, ...args]: string[]) {
      if (isRoot) await run('runuser', ['-u', 'postgres', '--', command, ...args]);
      else await run(command, args);
    },
  };
}

/** Adds the loopback replication rule to the primary's pg_hba.conf (once) and waits for the reload. */
async function allowReplication(primaryUrl: string) {
  const primary = postgres(primaryUrl, { max: 1, onnotice: () => {} });
  let before: Date;
  try {
    const [{ file }] = await primary`select current_setting('hba_file') as file`;
    const text = fs.readFileSync(file, 'utf8');
    if (!text.split('\n').some((line) => line.trim().replace(/\s+/g, ' ') === REPLICATION_RULE))
      fs.appendFileSync(file, `${text.endsWith('\n') ? '' : '\n'}${REPLICATION_RULE}\n`);
    [{ before }] = await primary`select pg_conf_load_time() as before`;
    await primary`select pg_reload_conf()`;
  } finally {
    await primary.end();
  }
  const deadline = Date.now() + REPLAY_BOUND_MS;
  for (;;) {
    // A new connection's configuration is the postmaster's: reloaded once its load time moved on.
    const probe = postgres(primaryUrl, { max: 1, onnotice: () => {} });
    const [{ loaded }] = await probe`select pg_conf_load_time() as loaded`;
    await probe.end();
    if (loaded > before) return;
    if (Date.now() > deadline) throw new Error('The primary did not reload its configuration');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * The standby's own postgresql.conf and pg_hba.conf (a Debian cluster keeps them outside its data
 * directory, so the base backup has none). A hot standby needs at least the primary's limits.
 */
async function writeStandbyConfig(primary: postgres.Sql, data: string, dir: string, port: number) {
  const limits = await primary`
    select name, setting from pg_settings
    where name in ('max_connections', 'max_worker_processes', 'max_wal_senders',
                   'max_prepared_transactions', 'max_locks_per_transaction')`;
  const settings = [
    `port = ${port}`,
    `listen_addresses = '127.0.0.1'`,
    `unix_socket_directories = '${dir}'`,
    'hot_standby = on',
    'shared_buffers = 16MB',
    'fsync = off',
    ...limits.map(({ name, setting }) => `${name} = ${setting}`),
  ];
  fs.writeFileSync(path.join(data, 'postgresql.conf'), settings.join('\n') + '\n');
  fs.writeFileSync(path.join(data, 'pg_hba.conf'), 'local all all trust\nhost all all 127.0.0.1/32 trust\n');
  fs.writeFileSync(path.join(data, 'pg_ident.conf'), '');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
