// Two senders in one process shared one lease identity: when a chunk's lease ran out under a holder
// still working it, another sender of the same process claimed the chunk "from itself", and both sent
// the recipients the first had not reached yet (a journey profile mailed twice on a loaded machine).
import { sql } from 'drizzle-orm';
import type { CampaignSend } from '@shared/api/campaigns';
import { createTestApp, sendingServer, type TestApp } from '../helpers/test-app';
import { markDeferred, markFailed } from '@server/campaigns/repository';
import { rows } from '@server/db/migrate';
import { startSmtpSink } from '../fixtures/smtp-sink';
import { verifiedUser, type TestUser } from '../factories/users';
import { call, teamWorkspace } from '../factories/items';
import { wsUrl } from '../factories/customers';
import { sendableCampaign } from '../factories/campaigns';

const PROFILES = ['ann', 'bob', 'cy', 'di'].map((name) => ({ id: name, email: `${name}@example.com` }));
/** One connection each and one chunk for everyone: a sender works its recipients one after the other. */
const ONE_AT_A_TIME = { campaigns: { connections: 1, chunkSize: 10 } };

let plain: TestApp;
let first: TestApp;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let manager: TestUser;
let ws: string;
let campaignId: string;

beforeAll(async () => {
  sink = await startSmtpSink();
  plain = await createTestApp();
  first = await sendingServer(plain, sink.url, ONE_AT_A_TIME);
  manager = await verifiedUser(plain, { name: 'Tess Takeover' });
  ws = (
    await teamWorkspace(plain, manager, { name: 'Takeover', domains: ['marketing'], roles: {}, people: {} })
  ).ws;
  campaignId = (await sendableCampaign(first, manager, ws, PROFILES)).campaignId;
});
afterAll(async () => {
  await first.close();
  await plain.close();
  await sink.close();
});

describe('a chunk taken over from a holder in the same process', () => {
  it('is sent by its new holder alone: the old one stops, and nobody gets two messages', async () => {
    const release = sink.hold();
    let second: TestApp | undefined;
    try {
      const res = await call(first, 'POST', wsUrl(ws, `campaigns/${campaignId}/send`), manager, {});
      expect(res.statusCode, res.body).toBe(202);
      const sendId = (res.json().send as CampaignSend).id;
      // The first sender's first message is whole at the server, its answer held back; the other three
      // are still pending in the list it works.
      await expect.poll(() => sink.waiting, { timeout: 20_000, interval: 50 }).toBe(1);
      await plain.database.db.execute(
        sql`update campaign_chunks set lease_until = now() - interval '1 second' where send_id = ${sendId}`,
      );
      // Another sender in this process takes the chunk over and has its own first message at the server.
      second = await sendingServer(plain, sink.url, ONE_AT_A_TIME);
      await expect.poll(() => sink.waiting, { timeout: 20_000, interval: 50 }).toBe(2);
      release();
      const state = async () =>
        (await call(first, 'GET', wsUrl(ws, `campaigns/${campaignId}/sends/${sendId}`), manager)).json()
          .state as string;
      await expect.poll(state, { timeout: 20_000, interval: 50 }).toBe('done');
      // Both senders' workers finish what they have under way before they stop.
      await second.close();
      second = undefined;
      const addresses = sink.received
        .filter((m) => m.mail.messageId?.startsWith(`<${sendId}.`))
        .map((m) => m.envelopeTo[0])
        .sort();
      expect(addresses).toEqual(PROFILES.map((p) => p.email));
    } finally {
      release();
      await second?.close();
    }
  }, 60_000);

  it("leaves a taken-over chunk's recipients to its new holder: the old one's deferrals and failures change nothing", async () => {
    const db = plain.database.db;
    const [chunk] = rows<{ workspace_id: string; send_id: string; first_n: number; last_n: number }>(
      await db.execute(sql`select workspace_id, send_id, first_n, last_n from campaign_chunks
        where workspace_id = ${ws} order by send_id, first_n limit 1`),
    );
    const key = {
      workspaceId: chunk.workspace_id,
      sendId: chunk.send_id,
      firstN: chunk.first_n,
      lastN: chunk.last_n,
    };
    const statuses = async () =>
      rows<{ n: number; status: string }>(
        await db.execute(sql`select n, status from campaign_recipients
          where workspace_id = ${ws} and send_id = ${chunk.send_id} order by n`),
      ).map((row) => row.status);
    // The new holder has two recipients in flight (its answers not yet in) when the old one finishes.
    const [n1, n2] = [chunk.first_n, chunk.first_n + 1];
    await db.execute(sql`update campaign_chunks set claimed_by = 'new-holder'
      where workspace_id = ${ws} and send_id = ${chunk.send_id} and first_n = ${chunk.first_n}`);
    await db.execute(sql`update campaign_recipients set status = 'sending'
      where workspace_id = ${ws} and send_id = ${chunk.send_id} and n in (${n1}, ${n2})`);
    const before = await statuses();
    const old = { ...key, claimedBy: 'old-holder' } as Parameters<typeof markDeferred>[1];
    await markDeferred(db, old, [n1]);
    await markFailed(db, old, [{ n: n2, error: '550 No such user here' }]);
    expect(await statuses()).toEqual(before);
    // The holder itself still marks them.
    const holder = { ...old, claimedBy: 'new-holder' };
    await markDeferred(db, holder, [n1]);
    await markFailed(db, holder, [{ n: n2, error: '550 No such user here' }]);
    expect((await statuses()).slice(0, 2)).toEqual(['pending', 'failed']);
  });
});
