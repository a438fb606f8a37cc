import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '@server/app';
import { loadConfig } from '@server/config';
import { openDatabase } from '@server/db/client';
import { migrateDatabase } from '@server/db/migrate';
import type { TestApp } from '../tests/helpers/test-app';
import { seedSend, type SeededSend } from '../tests/factories/campaign-sends';
import { importBody } from '../tests/factories/customers';
import { verifiedUser } from '../tests/factories/users';
import { createWorkspace, patchWorkspace } from '../tests/factories/workspaces';

/**
 * The app on its own in-memory database with one campaign send already out, as the send engine would
 * leave it (its rows written by the integration tests' factory), listening on `port`: what the
 * recipient-facing pages are tried against until a campaign can be sent through the main e2e server.
 */
export async function startSeededSendServer(port: number) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-e2e-send-'));
  const database = await openDatabase({});
  await migrateDatabase(database);
  const config = {
    ...loadConfig({ DATA_DIR: dataDir, PUBLIC_URL: `http://127.0.0.1:${port}`, PORT: String(port) }),
    jobs: false,
  };
  const app = await buildApp({ config, db: database.db, logger: false });
  await app.listen({ port, host: '127.0.0.1' });
  const t: TestApp = {
    app,
    database,
    config,
    dataDir,
    async close() {
      await app.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  const manager = await verifiedUser(t, { name: 'Send Manager' });
  const ws = (await createWorkspace(app, manager, 'Acme News')).id;
  await patchWorkspace(app, manager, ws, { basics: { domains: ['marketing'], stages: ['Live'] } });
  const imported = await importBody(t, manager, ws, 'profiles', 'text/csv', 'id\nreader-1\n');
  if (imported.statusCode !== 201) throw new Error(`import failed: ${imported.body}`);
  const send: SeededSend = await seedSend(t, ws, {
    recipients: [{ profileId: 'reader-1', email: 'reader@example.test' }],
  });
  const consentOf = async () =>
    (
      await app.inject({
        method: 'GET',
        url: `/api/v1/workspaces/${ws}/profiles/reader-1`,
        headers: manager.auth,
      })
    ).json().consent.email.state as string;
  return { url: `http://127.0.0.1:${port}`, send, consentOf, close: () => t.close() };
}
