// A journey's email step adds recipients to its send holding the send's row until it commits; the
// send's lanes record each accepted message on that row. Sending must not wait for those records.
import { sql } from 'drizzle-orm';
import type { CampaignSend } from '@shared/api/campaigns';
import { openDatabase } from '@server/db/client';
import { rows } from '@server/db/migrate';
import { createTestApp, sendingServer, type TestApp } from '../helpers/test-app';
import { testDatabaseKind } from '../helpers/database';
import { startSmtpSink } from '../fixtures/smtp-sink';
import { verifiedUser, type TestUser } from '../factories/users';
import { call, teamWorkspace } from '../factories/items';
import { wsUrl } from '../factories/customers';
import { sendableCampaign } from '../factories/campaigns';

const PROFILES = ['ann', 'bob', 'cy', 'di'].map((name) => ({ id: name, email: `${name}@example.com` }));
/** One connection and one chunk for everyone: the lane works its recipients one after the other. */
const ONE_AT_A_TIME = { campaigns: { connections: 1, chunkSize: 10 } };

describe.runIf(testDatabaseKind() === 'postgres')("a send's row held by another transaction", () => {
  let plain: TestApp;
  let sender: TestApp;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let manager: TestUser;
  let ws: string;
  let campaignId: string;

  beforeAll(async () => {
    sink = await startSmtpSink();
    plain = await createTestApp();
    sender = await sendingServer(plain, sink.url, ONE_AT_A_TIME);
    manager = await verifiedUser(plain, { name: 'Row Holder' });
    ws = (
      await teamWorkspace(plain, manager, { name: 'Held', domains: ['marketing'], roles: {}, people: {} })
    ).ws;
    campaignId = (await sendableCampaign(sender, manager, ws, PROFILES)).campaignId;
  });
  afterAll(async () => {
    await sender.close();
    await plain.close();
    await sink.close();
  });

  it('keeps sending meanwhile, and records every message once the row is free', async () => {
    const other = await openDatabase({ databaseUrl: plain.database.url!, maxConnections: 1 });
    const release = sink.hold();
    try {
      const res = await call(sender, 'POST', wsUrl(ws, `campaigns/${campaignId}/send`), manager, {});
      expect(res.statusCode, res.body).toBe(202);
      const sendId = (res.json().send as CampaignSend).id;
      const ofSend = () => sink.received.filter((m) => m.mail.messageId?.startsWith(`<${sendId}.`)).length;
      await expect.poll(() => sink.waiting, { timeout: 20_000, interval: 50 }).toBe(1);
      let free!: () => void;
      const freed = new Promise<void>((resolve) => (free = resolve));
      let held!: () => void;
      const rowHeld = new Promise<void>((resolve) => (held = resolve));
      const holder = other.db.transaction(async (tx) => {
        await tx.execute(
          sql`select 1 from campaign_sends where workspace_id = ${ws} and id = ${sendId} for update`,
        );
        held();
        await freed;
      });
      await rowHeld;
      release();
      // Every message reaches the server while the row is held.
      await expect.poll(ofSend, { timeout: 20_000, interval: 50 }).toBe(PROFILES.length);
      free();
      await holder;
      const state = async () =>
        (await call(sender, 'GET', wsUrl(ws, `campaigns/${campaignId}/sends/${sendId}`), manager)).json()
          .state as string;
      await expect.poll(state, { timeout: 20_000, interval: 50 }).toBe('done');
      const [counts] = rows<{ sent: number; recorded: number }>(
        await plain.database.db.execute(sql`
          select s.sent, (select count(*)::int from campaign_recipients r
            where r.workspace_id = s.workspace_id and r.send_id = s.id and r.status = 'sent') as recorded
          from campaign_sends s where s.workspace_id = ${ws} and s.id = ${sendId}`),
      );
      expect(counts).toEqual({ sent: PROFILES.length, recorded: PROFILES.length });
      expect(ofSend()).toBe(PROFILES.length);
    } finally {
      release();
      await other.close();
    }
  }, 60_000);
});
