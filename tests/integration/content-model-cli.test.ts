import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { run } from '../../scripts/marquee-cli.mjs';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import { call } from '../factories/items';
import { createWorkspace } from '../factories/workspaces';

let t: TestApp;
let manager: TestUser;
let url: string;
let dir: string;

beforeAll(async () => {
  t = await createTestApp();
  manager = await verifiedUser(t, { name: 'Cli Manager' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-cli-'));
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function cli(...args: string[]) {
  let out = '';
  let err = '';
  const code = await run(args, {
    env: {},
    write: (text: string) => (out += text),
    error: (text: string) => (err += text),
  });
  return { code, out, err };
}

const auth = (ws: string) => ['--url', url, '--token', manager.token, '--workspace', ws];

describe('npx marquee model', () => {
  it('pulls a staging model, plans it against production and applies it once', async () => {
    const staging = await createWorkspace(t.app, manager, 'Cli Staging');
    const production = await createWorkspace(t.app, manager, 'Cli Production');
    const added = await call(t, 'POST', `/api/v1/workspaces/${staging.id}/content-model/apply`, manager, {
      baseVersion: 0,
      ops: [
        { op: 'addField', schema: 'blog-post', field: { key: 'seoTitle', label: 'SEO title', type: 'text' } },
      ],
    });
    expect(added.statusCode).toBe(200);
    const file = path.join(dir, 'model.json');

    const pulled = await cli('model', 'pull', ...auth(staging.id), '--file', file);
    expect(pulled).toMatchObject({ code: 0, out: `Wrote model version 1 to ${file}\n` });

    const planned = await cli('model', 'plan', ...auth(production.id), '--file', file);
    expect(planned.code).toBe(0);
    expect(planned.out).toContain('1 operation(s) on model version 0');
    expect(planned.out).toContain('Add field "seoTitle" (text) to "blog-post"');

    const applied = await cli('model', 'apply', ...auth(production.id), '--file', file);
    expect(applied.code).toBe(0);
    expect(applied.out).toMatch(/^Applied: model version 1 \(change \w+, 1 operation\(s\)\)/);
    const again = await cli('model', 'apply', ...auth(production.id), '--file', file);
    expect(again.out).toBe('No changes: the workspace already has this model (version 1).\n');

    const stale = await cli('model', 'apply', ...auth(production.id), '--file', file, '--base-version', '0');
    expect(stale.code).toBe(1);
    expect(stale.err).toContain('409');
  });

  it('says how it is used, and what the server refused', async () => {
    expect((await cli('model', 'push')).code).toBe(2);
    expect((await cli('model', 'pull')).err).toContain('--url, --token and --workspace are needed');
    const denied = await cli('model', 'pull', '--url', url, '--token', 'nope', '--workspace', 'nowhere');
    expect(denied.code).toBe(1);
    expect(denied.err).toContain('401');
  });

  it('takes an option value that begins with a dash, as a random token may', async () => {
    const dashed = await cli('model', 'pull', '--url', url, '--token', '-Xq9', '--workspace', 'nowhere');
    expect(dashed).toMatchObject({ code: 1 });
    expect(dashed.err).toContain('401');
  });
});
