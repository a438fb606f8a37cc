import { sql } from 'drizzle-orm';
import type { JourneyResults } from '@shared/api/journeys';
import type { AppContext } from '@server/context';
import { rows } from '@server/db/migrate';
import { createTestApp, sendingServer, type TestApp } from '../helpers/test-app';
import { startSmtpSink } from '../fixtures/smtp-sink';
import { verifiedUser, type TestUser } from './users';
import { approve, call, createItem, role, saveItem, teamWorkspace, type Team } from './items';
import { defineCustomerData, importBody, wsUrl, type MarketingDefinitions } from './customers';

export const journeysUrl = (ws: string, id: string, rest: string) => wsUrl(ws, `journeys/${id}/${rest}`);

/**
 * A server with its job worker sending journeys' email to a real SMTP server on 127.0.0.1, a workspace
 * whose roles start (`starter`), edit (`marketer`) and approve (`legal`) journeys, its customer data
 * declared (with `timezone` and `birthday`), the profiles of `profilesCsv`, an email template and a
 * sender; and another workspace.
 */
export async function journeyBed(profilesCsv: string) {
  const sink = await startSmtpSink();
  const plain = await createTestApp({ webhookAllowPrivate: true });
  const t: TestApp = await sendingServer(plain, sink.url, { webhookRetryBaseMs: 20 });
  const manager = await verifiedUser(plain, { name: 'Mia Manager' });
  const team: Team = await teamWorkspace(plain, manager, {
    name: 'Journeys',
    domains: ['marketing'],
    roles: {
      marketer: role('Marketer', { canEdit: ['journey'], customerData: ['read'] }),
      starter: role('Starter', { canEdit: ['journey'], canPublish: ['journey'], customerData: ['read'] }),
      legal: role('Legal', { canEdit: [], mustApprove: ['journey'], customerData: ['read'] }),
    },
    people: { marketer: ['marketer'], starter: ['starter'], legal: ['legal'] },
  });
  const other = await teamWorkspace(plain, manager, {
    name: 'Elsewhere',
    domains: ['marketing'],
    roles: {},
    people: {},
  });
  const defs: MarketingDefinitions = await defineCustomerData(t, manager, team.ws);
  for (const [key, attributeType] of [
    ['email', 'string'],
    ['first-name', 'string'],
    ['timezone', 'string'],
    ['birthday', 'date'],
  ]) {
    await createItem(t, manager, team.ws, 'customer-profile-attribute', { name: key, key, attributeType });
  }
  const imported = await importBody(t, manager, team.ws, 'profiles', 'text/csv', profilesCsv);
  if (imported.json().batch?.failed !== 0) throw new Error(`profiles not imported: ${imported.body}`);
  const emailId = (
    await createItem(t, manager, team.ws, 'email', {
      name: 'Letter',
      subject: 'Letter',
      template: { 'gjs-nl-html': '<p>Hello {{first-name|friend}}</p>', 'gjs-nl-css': '' },
      testAddresses: 'qa@example.com',
    })
  ).id;
  const senderId = (
    await call(t, 'POST', wsUrl(team.ws, 'senders'), manager, {
      fromName: 'Acme',
      fromAddress: 'hi@acme.example',
    })
  ).json().id;
  for (const [path, body] of [
    ['senders/postal-address', { postalAddress: '1 Main St' }],
    ['senders/recipients', { mailUnknownConsent: true }],
  ] as const) {
    const res = await call(t, 'PUT', wsUrl(team.ws, path), manager, body);
    if (res.statusCode !== 200) throw new Error(res.body);
  }
  /** What the engine's scheduled functions get from the worker. */
  const ctx = { db: t.database.db, config: t.config, log: t.app.log } as AppContext;

  const bed = {
    t,
    ctx,
    sink,
    manager,
    team,
    other,
    defs,
    email: (id: string, subject: string, extra: object = {}) => ({
      id,
      type: 'email',
      email: emailId,
      sender: senderId,
      subject,
      ...extra,
    }),
    /** An approved journey item of `definition`; answers its id. */
    async newJourney(definition: object, ws = team.ws, user: TestUser = manager) {
      const item = await createItem(t, user, ws, 'journey', {
        name: 'Journey',
        definition: JSON.stringify(definition),
      });
      const res = await approve(t, team.members.legal, ws, 'journey', item.id, 'legal');
      if (res.statusCode !== 200) throw new Error(res.body);
      return item.id as string;
    },
    /** Saves `definition` as the journey's next version, approved; answers its version number. */
    async newVersion(id: string, definition: object) {
      const item = await saveItem(t, manager, team.ws, 'journey', id, {
        name: 'Journey',
        definition: JSON.stringify(definition),
      });
      const res = await approve(t, team.members.legal, team.ws, 'journey', id, 'legal');
      if (res.statusCode !== 200) throw new Error(res.body);
      return item.version;
    },
    start: (id: string, body?: object) =>
      call(t, 'POST', journeysUrl(team.ws, id, 'start'), team.members.starter, body),
    enter: async (id: string, profileIds: string[]) =>
      (await call(t, 'POST', journeysUrl(team.ws, id, 'enter'), team.members.starter, { profileIds })).json(),
    async track(events: { profileId: string; event: string; properties?: object }[]) {
      const res = await call(t, 'POST', wsUrl(team.ws, 'customer-events'), manager, {
        events: events.map((e, i) => ({ ...e, at: new Date(Date.now() - 1000 + i).toISOString() })),
      });
      if (res.statusCode !== 200) throw new Error(res.body);
    },
    async updateProfiles(csv: string) {
      const res = await importBody(t, manager, team.ws, 'profiles', 'text/csv', csv);
      if (res.json().batch?.failed !== 0) throw new Error(res.body);
    },
    async results(id: string) {
      const res = await call(t, 'GET', journeysUrl(team.ws, id, 'results'), team.members.marketer);
      if (res.statusCode !== 200) throw new Error(res.body);
      return res.json() as JourneyResults;
    },
    stepOf: (answer: JourneyResults, stepId: string) =>
      answer.versions[0].steps.find((s) => s.stepId === stepId)!,
    /** Profiles whose run of the journey reached `stepId`, sorted. */
    async reached(id: string, stepId: string) {
      return rows<{ profile_id: string }>(
        await t.database.db.execute(sql`
          select distinct profile_id from journey_tasks
          where workspace_id = ${team.ws} and journey_id = ${id} and step_id = ${stepId} order by profile_id`),
      ).map((row) => row.profile_id);
    },
    /** The profile's task at the step: its state, due time and outcome. */
    async taskAt(id: string, profileId: string, stepId: string) {
      const [row] = rows<{
        state: string;
        due_at: Date | string;
        outcome: string | null;
        entered_at: Date | string;
      }>(
        await t.database.db.execute(sql`
          select state, due_at, outcome, entered_at from journey_tasks
          where workspace_id = ${team.ws} and journey_id = ${id} and profile_id = ${profileId} and step_id = ${stepId}
          order by seq desc limit 1`),
      );
      return row && { ...row, due_at: new Date(row.due_at), entered_at: new Date(row.entered_at) };
    },
    /** The journey's customer events of the profile (journey-entered, -step, -exited). */
    async journeyEvents(profileId: string, journeyId: string) {
      return rows<{ event: string; properties: Record<string, unknown> }>(
        await t.database.db.execute(sql`
          select event, properties from customer_events
          where workspace_id = ${team.ws} and profile_id = ${profileId} and event like 'journey-%'
            and properties->>'journey' = ${journeyId}
          order by at, event`),
      );
    },
    /** Subjects each address got, sorted. */
    mailbox() {
      const byAddress: Record<string, string[]> = {};
      for (const { envelopeTo, mail } of sink.received) {
        for (const to of envelopeTo) (byAddress[to] ??= []).push(mail.subject ?? '');
      }
      for (const subjects of Object.values(byAddress)) subjects.sort();
      return byAddress;
    },
    async close() {
      await t.close();
      await plain.close();
      await sink.close();
    },
  };
  return bed;
}

export type JourneyBed = Awaited<ReturnType<typeof journeyBed>>;
