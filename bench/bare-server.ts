/**
 * The bare Fastify server benches compare against: in a process of its own, Fastify answering fixed JSON
 * bodies (`GET /list` and `GET /single/:id`) and nothing else, so "our route vs bare" is the cost of
 * everything beyond HTTP and routing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const BARE_SERVER = `
import fs from 'node:fs';
import Fastify from 'fastify';
const bodies = JSON.parse(fs.readFileSync(process.env.BARE_BODIES, 'utf8'));
const app = Fastify({ logger: false });
app.get('/list', async (_req, reply) => reply.type('application/json; charset=utf-8').send(bodies.list));
app.get('/single/:id', async (_req, reply) => reply.type('application/json; charset=utf-8').send(bodies.single));
await app.listen({ port: Number(process.env.BARE_PORT), host: '127.0.0.1' });
`;

/** Starts the bare server on `port` answering `bodies` (JSON text); `dir` holds its bodies file. */
export function startBareServer(
  dir: string,
  port: number,
  bodies: { list?: string; single: string },
): ChildProcess {
  const bodiesFile = path.join(dir, 'bare-bodies.json');
  fs.writeFileSync(bodiesFile, JSON.stringify({ list: bodies.list ?? '[]', single: bodies.single }));
  return spawn(process.execPath, ['--input-type=module', '-e', BARE_SERVER], {
    env: { ...process.env, BARE_PORT: String(port), BARE_BODIES: bodiesFile },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}
