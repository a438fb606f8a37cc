// A campaign send survives kill -9: two real server processes on one PostgreSQL database send one
// campaign to a real SMTP server; one is killed mid-send while messages of its are at the server
// awaiting their 250, the other takes its chunks over once their leases run out. No recipient receives
// two messages; those the killed process had in flight are unconfirmed, not sent again, and everyone
// else is sent.
import postgres from 'postgres';
import type { CampaignSend } from '@shared/api/campaigns';
import { randomId } from '@server/lib/ids';
import { testDatabaseKind } from '../helpers/database';
import {
  callProcess,
  eventually,
  killServerProcess,
  processUser,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from '../helpers/server-process';
import { startSmtpSink } from '../fixtures/smtp-sink';

const RECIPIENTS = 400;

describe.runIf(testDatabaseKind() === 'postgres')('a campaign send across processes', () => {
  let admin: postgres.Sql;
  let databaseName: string;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let a: ServerProcess;
  let b: ServerProcess;

  beforeAll(async () => {
    sink = await startSmtpSink();
    admin = postgres(process.env.TEST_DATABASE_URL!, { max: 1, onnotice: () => {} });
    databaseName = `marquee_c_${randomId(10).toLowerCase()}`;
    await admin.unsafe(`create database "${databaseName}"`);
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${databaseName}`;
    const env = {
      SMTP_URL: sink.url,
      JOBS_POLL_MS: '50',
      CAMPAIGN_CHUNK_SIZE: '10',
      CAMPAIGN_LEASE_MS: '1500',
      // Slow enough that the send is still under way when a process is killed.
      CAMPAIGN_RATE_SMTP: '100',
      CAMPAIGN_SMTP_CONNECTIONS: '4',
    };
    // One after the other: the first migrates the new database.
    a = await startServerProcess(url.toString(), env);
    b = await startServerProcess(url.toString(), env);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a && stopServerProcess(a), b && stopServerProcess(b)]);
    await admin.unsafe(`drop database if exists "${databaseName}" with (force)`);
    await admin.end();
    await sink.close();
  }, 60_000);

  it('sends nobody twice when a sending process is killed, and counts its messages in flight unconfirmed', async () => {
    // Broke: the killed process's messages whose 250 never came counted as sent.
    const mails = () =>
      sink.received.map((m) => ({ to: m.envelopeTo.join(', '), text: `${m.mail.text ?? ''}` }));
    const manager = await processUser(a, 'Mia', mails);
    const ws = (await callProcess(a, 'POST', '/workspaces', manager.token, { name: 'Kill' })).body
      .id as string;
    const api = (method: string, rest: string, body?: object | string, type?: string) =>
      callProcess(a, method, `/workspaces/${ws}/${rest}`, manager.token, body, type);
    const domains = { basics: { domains: ['marketing'] } };
    expect((await callProcess(a, 'PATCH', `/workspaces/${ws}`, manager.token, domains)).status).toBe(200);
    for (const key of ['email', 'tier']) {
      const made = await api('POST', 'items/customer-profile-attribute', {
        data: { name: key, key, attributeType: 'string' },
      });
      expect(made.status).toBe(201);
    }
    const csv = ['id,email,tier'];
    for (let i = 1; i <= RECIPIENTS; i++) csv.push(`p-${i},r${i}@kill.test,gold`);
    const imported = await api('POST', 'profiles/import', csv.join('\n'), 'text/csv');
    expect(imported.body.batch).toMatchObject({ processed: RECIPIENTS, failed: 0 });
    const audience = await api('POST', 'items/audience', { data: { name: 'Everyone' } });
    const email = await api('POST', 'items/email', {
      data: { name: 'News', subject: 'News for {{email}}', template: { combinedMarkup: '<p>Hello</p>' } },
    });
    const sender = await api('POST', 'senders', { fromName: 'Kill News', fromAddress: 'news@kill.test' });
    expect((await api('PUT', 'senders/postal-address', { postalAddress: '1 Main St' })).status).toBe(200);
    expect((await api('PUT', 'senders/recipients', { mailUnknownConsent: true })).status).toBe(200);
    const campaign = await api('POST', 'items/campaign', {
      data: {
        name: 'Survivor',
        email: { schemaType: 'email', id: email.body.id, label: 'News' },
        audience: { schemaType: 'audience', id: audience.body.id, label: 'Everyone' },
        sender: sender.body.id,
      },
    });
    expect(campaign.status).toBe(201);
    const before = sink.received.length;
    const send = await api('POST', `campaigns/${campaign.body.id}/send`, {});
    expect(send.status).toBe(202);
    const sendId = (send.body.send as CampaignSend).id;

    // Mid-send: some messages are in, most are not. Then the server holds its answers back until each
    // process has messages whole at the server (4 connections each: more than 4 are both's).
    await eventually('the first messages', async () =>
      sink.received.length - before >= 40 ? true : undefined,
    );
    const release = sink.hold();
    await eventually('messages of both processes in flight', async () =>
      sink.waiting > 4 ? true : undefined,
    );
    await killServerProcess(a);
    release();
    const state = async () =>
      (
        await callProcess(
          b,
          'GET',
          `/workspaces/${ws}/campaigns/${campaign.body.id}/sends/${sendId}`,
          manager.token,
        )
      ).body as unknown as CampaignSend;
    await eventually('the send to finish in the other process', async () =>
      (await state()).state === 'done' ? true : undefined,
    );
    const mine = sink.received.slice(before).filter((m) => m.mail.messageId?.startsWith(`<${sendId}.`));
    const addresses = mine.map((m) => m.envelopeTo[0]);
    expect(new Set(addresses).size).toBe(addresses.length);
    const { counts } = await state();
    expect(counts).toMatchObject({ recipients: RECIPIENTS, failed: 0, pending: 0 });
    expect(counts.unconfirmed).toBeGreaterThan(0);
    expect(counts.sent + counts.unconfirmed).toBe(RECIPIENTS);
    // Every one sent is at the server; of the unconfirmed, some may be (their 250 went to a dead process).
    expect(addresses.length).toBeGreaterThanOrEqual(counts.sent);
    expect(addresses.length).toBeLessThanOrEqual(RECIPIENTS);
  }, 120_000);
});
