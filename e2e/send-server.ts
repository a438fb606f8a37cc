import path from 'node:path';
import { openDatabase } from '@server/db/client';
import { migrateDatabase } from '@server/db/migrate';
import type { Mail } from '@server/mail/mailer';
import { startSmtpSink } from '../tests/fixtures/smtp-sink';
import { sendableCampaign, type CampaignProfile } from '../tests/factories/campaigns';
import { call } from '../tests/factories/items';
import { signUp } from '../tests/factories/users';
import { createWorkspace, patchWorkspace } from '../tests/factories/workspaces';
import { startApp } from '../tests/helpers/start-app';
import { tokenOf } from '../tests/helpers/outbox';

/**
 * The app on its own in-memory database, listening on `port` with its job worker on, sending campaigns
 * for real to an SMTP sink (tests/fixtures/smtp-sink.ts): a verified manager's workspace, Acme News, has
 * a campaign to `readers` that `send()` sends and `received()` reads from the sink.
 */
export async function startSendServer(port: number, readers: CampaignProfile[]) {
  const url = `http://127.0.0.1:${port}`;
  const sink = await startSmtpSink();
  const database = await openDatabase({});
  await migrateDatabase(database);
  // Account mail (the verification link) is kept here; campaign mail goes to the sink.
  const accountMail: Mail[] = [];
  const t = await startApp(
    database,
    // The built web app too (npm run build), for the screens a manager checks the outcome on.
    {
      publicUrl: url,
      port,
      smtpUrl: sink.url,
      jobs: true,
      jobsPollMs: 100,
      webDir: path.resolve('dist/web'),
    },
    { mailer: { send: async (mail) => void accountMail.push(mail) } },
  );
  await t.app.listen({ port, host: '127.0.0.1' });

  const manager = await signUp(t.app, { name: 'Send Manager' });
  const link = accountMail.find((mail) => mail.to === manager.email)?.link ?? '';
  const verified = await call(t, 'POST', '/api/v1/auth/verify-email', undefined, { token: tokenOf(link) });
  if (verified.statusCode !== 200) throw new Error(`verify failed: ${verified.body}`);
  const ws = (await createWorkspace(t.app, manager, 'Acme News')).id;
  await patchWorkspace(t.app, manager, ws, {
    basics: { domains: ['marketing'], stages: ['Live'] },
    oobe: { done: true },
  });
  const { campaignId, emailId, senderId } = await sendableCampaign(t, manager, ws, readers);

  return {
    url,
    ws,
    /** The email template and the sender the campaign uses, for other sends to use too. */
    emailId,
    senderId,
    /** The workspace's manager, for a browser to sign in as. */
    manager: { email: manager.email, password: manager.password },
    /** Sends the campaign now; answers the send's id. */
    async send() {
      const res = await call(t, 'POST', `/api/v1/workspaces/${ws}/campaigns/${campaignId}/send`, manager, {});
      if (res.statusCode !== 202) throw new Error(`send failed: ${res.body}`);
      return (res.json() as { send: { id: string } }).send.id;
    },
    /** The messages of a send the SMTP sink has received so far. */
    received: (sendId: string) => sink.received.filter((m) => m.mail.messageId?.startsWith(`<${sendId}.`)),
    /** Every message the SMTP sink has received for an address so far. */
    receivedBy: (address: string) => sink.received.filter((m) => m.envelopeTo.includes(address)),
    async close() {
      await t.close();
      await sink.close();
    },
  };
}
