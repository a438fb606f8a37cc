import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { rows } from '../db/migrate';
import { campaignChunks, campaignLinks, campaignSends } from '../db/schema';
import { withAudienceSettings } from '../audiences/repository';
import type { CompiledCriteria } from '../audiences/compile';
import { textArray } from '../db/text-array';

export type SendRow = typeof campaignSends.$inferSelect;
export type ChunkRow = typeof campaignChunks.$inferSelect;
/** A chunk as its claim holds it: `claimedBy` names that claim. */
export type ClaimedChunk = ChunkRow & { claimedBy: string };

const sendKey = (workspaceId: string, id: string) =>
  and(eq(campaignSends.workspaceId, workspaceId), eq(campaignSends.id, id));

export async function insertSend(tx: Tx, row: typeof campaignSends.$inferInsert, links: string[]) {
  const [send] = await tx.insert(campaignSends).values(row).returning();
  if (links.length) {
    await tx
      .insert(campaignLinks)
      .values(
        links.map((url, index) => ({ workspaceId: row.workspaceId, sendId: row.id, idx: index + 1, url })),
      );
  }
  return send;
}

export async function findSend(db: Db | Tx, workspaceId: string, id: string) {
  const [row] = await db.select().from(campaignSends).where(sendKey(workspaceId, id));
  return row;
}

/** The send row locked for a state change. */
export async function lockSend(tx: Tx, workspaceId: string, id: string) {
  const [row] = await tx.select().from(campaignSends).where(sendKey(workspaceId, id)).for('update');
  return row;
}

export async function listSends(db: Db, workspaceId: string, campaignId: string) {
  return db
    .select()
    .from(campaignSends)
    .where(and(eq(campaignSends.workspaceId, workspaceId), eq(campaignSends.campaignId, campaignId)))
    .orderBy(desc(campaignSends.createdAt))
    .limit(50);
}

/**
 * Per campaign of the workspace with a send: whether one is queued (and the first time), whether one
 * is sending or paused, how many are done, and the recipients and sent of those not cancelled.
 */
export async function sendSummaries(db: Db, workspaceId: string) {
  const found = rows<{
    campaign_id: string;
    queued_at: Date | string | null;
    sending: boolean;
    done: string | number;
    recipients: string | number;
    sent: string | number;
    unconfirmed: string | number;
    decide_at: Date | string | null;
  }>(
    await db.execute(sql`
      select campaign_id,
        min(send_at) filter (where state = 'queued') as queued_at,
        bool_or(state in ('sending', 'paused')) as sending,
        count(*) filter (where state = 'done') as done,
        coalesce(sum(recipients) filter (where state <> 'cancelled'), 0) as recipients,
        coalesce(sum(sent), 0) as sent,
        coalesce(sum(unconfirmed), 0) as unconfirmed,
        (select min(e.decide_at) from campaign_experiments e
          where e.workspace_id = ${workspaceId}::text and e.campaign_id = s.campaign_id and e.state = 'testing'
        ) as decide_at
      from campaign_sends s where workspace_id = ${workspaceId}::text and journey_id is null
      group by campaign_id`),
  );
  return found.map((row) => ({
    campaignId: row.campaign_id,
    queuedAt: row.queued_at ? new Date(row.queued_at) : null,
    sending: row.sending === true,
    done: Number(row.done),
    recipients: Number(row.recipients),
    sent: Number(row.sent),
    unconfirmed: Number(row.unconfirmed),
    /** While an A/B test waits to pick its winner: when it picks it. */
    decideAt: row.decide_at ? new Date(row.decide_at) : null,
  }));
}

/** The campaign's send still under way (queued, sending or paused), if any. */
export async function currentSend(db: Db | Tx, workspaceId: string, campaignId: string) {
  const [row] = await db
    .select()
    .from(campaignSends)
    .where(
      and(
        eq(campaignSends.workspaceId, workspaceId),
        eq(campaignSends.campaignId, campaignId),
        inArray(campaignSends.state, ['queued', 'sending', 'paused']),
      ),
    )
    .limit(1);
  return row;
}

export async function setState(
  tx: Tx,
  workspaceId: string,
  id: string,
  state: string,
  extra: Partial<typeof campaignSends.$inferInsert> = {},
) {
  const [row] = await tx
    .update(campaignSends)
    .set({ state, ...extra })
    .where(sendKey(workspaceId, id))
    .returning();
  return row;
}

export async function recordSnapshot(tx: Tx, workspaceId: string, id: string, counts: SnapshotCounts) {
  await tx
    .update(campaignSends)
    .set({
      snapshotAt: new Date(),
      audienceSize: counts.audience,
      recipients: counts.recipients,
      alreadyReceived: counts.alreadyReceived,
    })
    .where(sendKey(workspaceId, id));
}

/** Who a workspace's campaigns go to: where addresses are read, and whether unknown consent is mailed. */
export interface RecipientRules {
  emailAttribute: string;
  mailUnknownConsent: boolean;
}

const HAS_ADDRESS = sql`m.email ~ '^[^[:space:]@]+@[^[:space:]@]+$'`;
/** Consent that leaves a member out: unsubscribed, and unknown unless the workspace mails it. */
const consentLeavesOut = (rules: RecipientRules) =>
  rules.mailUnknownConsent
    ? sql`m.email_consent = 'unsubscribed'`
    : sql`m.email_consent in ('unsubscribed', 'unknown')`;

/** A reachable member: an address that looks like one, consent that allows it, not suppressed. */
const reachable = (workspaceId: string, rules: RecipientRules) => sql`
  ${HAS_ADDRESS} and not (${consentLeavesOut(rules)})
  and not exists (
    select 1 from customer_suppressions s
    where s.workspace_id = ${workspaceId}::text and (s.profile_id = m.id or s.email = m.email))`;

/**
 * The recipients of the campaign's other sends who got (or may have got) its message: sent, in flight
 * or unconfirmed. A later send leaves them out unless it goes to everyone.
 */
const receivedOf = (workspaceId: string, campaignId: string, exceptSendId: string) => sql`
  select r.profile_id, r.email from campaign_recipients r
  join campaign_sends s on s.workspace_id = r.workspace_id and s.id = r.send_id
  where s.workspace_id = ${workspaceId}::text and s.campaign_id = ${campaignId}::text
    and s.id <> ${exceptSendId}::text and r.status in ('sent', 'sending', 'unconfirmed')`;

/** The recipients of an experiment's test sends who got (or may have got) their variant. */
const testedOf = (workspaceId: string, experimentId: string) => sql`
  select r.profile_id, r.email from campaign_recipients r
  join campaign_sends s on s.workspace_id = r.workspace_id and s.id = r.send_id
  where s.workspace_id = ${workspaceId}::text and s.experiment_id = ${experimentId}::text
    and s.variant <> 'winner' and r.status in ('sent', 'sending', 'unconfirmed')`;

const notReceived = sql`not exists (select 1 from received x where x.email = m.email)
  and not exists (select 1 from received x where x.profile_id = m.id)`;

const membersOf = (compiled: CompiledCriteria, workspaceId: string, rules: RecipientRules) => sql`
  select p.id, lower(btrim(p.attributes ->> ${rules.emailAttribute}::text)) as email, p.email_consent
  from ${compiled.profiles} p ${sql.join(compiled.joins, sql` `)}
  where p.workspace_id = ${workspaceId}::text and ${compiled.matches}`;

/** A snapshot's counts: the audience's members, the recipients, and those an earlier send reached. */
export interface SnapshotCounts {
  audience: number;
  recipients: number;
  alreadyReceived: number;
}

/**
 * Freezes who a send goes to, in one statement: the audience's members now, minus those without an
 * address, unsubscribed or suppressed, one per address (the first profile id), numbered in address
 * order (the order picking one per address leaves them in: no second sort), minus, unless the send
 * goes to everyone, those an earlier send of the campaign reached (by profile or address); then the
 * chunks of `chunkSize` recipients. An experiment's winner send leaves out its test sends' recipients
 * (even when it goes to everyone) and the members `leaveOut` holds over `m` (the holdout). Answers the
 * counts.
 */
export async function snapshotRecipients(
  db: Db,
  send: {
    workspaceId: string;
    id: string;
    campaignId: string;
    everyone: boolean;
    experimentId?: string | null;
  },
  compiled: CompiledCriteria,
  rules: RecipientRules,
  chunkSize: number,
  finish: (tx: Tx, counts: SnapshotCounts) => Promise<void>,
  leaveOut: SQL = sql`true`,
) {
  return withAudienceSettings(db, false, async (tx) => {
    // Another process may have taken the same orphaned snapshot over: the first to lock the row does it.
    const locked = await lockSend(tx, send.workspaceId, send.id);
    if (!locked || locked.snapshotAt) return null;
    const [counts] = rows<Record<'audience' | 'recipients' | 'reachable', string | number>>(
      await tx.execute(sql`
        with members as materialized (${membersOf(compiled, send.workspaceId, rules)}),
        received as materialized (${
          send.everyone && send.experimentId
            ? testedOf(send.workspaceId, send.experimentId)
            : receivedOf(send.workspaceId, send.campaignId, send.id)
        }),
        reachable as (
          select distinct on (m.email) m.id, m.email from members m
          where ${reachable(send.workspaceId, rules)}
          order by m.email, m.id),
        reach as (
          select m.id, m.email from reachable m
          where ${send.everyone && !send.experimentId ? sql`true` : notReceived} and ${leaveOut}),
        stored as (
          insert into campaign_recipients (workspace_id, send_id, n, profile_id, email)
          select ${send.workspaceId}::text, ${send.id}::text, row_number() over (order by email), id, email
          from reach
          returning 1)
        select (select count(*) from members) as audience, (select count(*) from stored) as recipients,
          (select count(*) from reachable) as reachable`),
    );
    const recipients = Number(counts.recipients);
    const result = {
      audience: Number(counts.audience),
      recipients,
      alreadyReceived: Number(counts.reachable) - recipients,
    };
    await tx.execute(sql`
      insert into campaign_chunks (workspace_id, send_id, first_n, last_n)
      select ${send.workspaceId}::text, ${send.id}::text, g, least(g + ${chunkSize}::int - 1, ${result.recipients}::int)
      from generate_series(1, ${result.recipients}::int, ${chunkSize}::int) g`);
    await finish(tx, result);
    return result;
  });
}

/** How an experiment's split fell: the counts of `SnapshotCounts`, the holdout, and each test send's recipients. */
export interface SplitCounts {
  audience: number;
  /** Reachable members an earlier send of the campaign reached, left out of the split. */
  alreadyReceived: number;
  holdout: number;
  recipients: Map<string, number>;
}

/**
 * Splits an experiment's audience across its test sends, in one statement, as `snapshotRecipients`
 * takes a send's: the reachable members no earlier send of the campaign reached (all of them, when it
 * goes to everyone) each draw a share (`share`, over `m.id`: 0 the holdout, 1… the sends in order, -1
 * the rest); the holdout is written to `campaign_holdouts`, each send's share to its recipients, and
 * its chunks. Locks the experiment: the first to get here splits; answers null for the others.
 */
export async function splitRecipients(
  db: Db,
  experiment: { workspaceId: string; id: string; campaignId: string; everyone: boolean },
  sendIds: string[],
  share: SQL,
  compiled: CompiledCriteria,
  rules: RecipientRules,
  chunkSize: number,
  finish: (tx: Tx, counts: SplitCounts) => Promise<void>,
) {
  const { workspaceId } = experiment;
  return withAudienceSettings(db, false, async (tx) => {
    const [locked] = rows<{ tested_at: Date | string | null }>(
      await tx.execute(sql`
        select tested_at from campaign_experiments
        where workspace_id = ${workspaceId}::text and id = ${experiment.id}::text for update`),
    );
    if (!locked || locked.tested_at) return null;
    const [counts] = rows<Record<'audience' | 'reachable' | 'reach' | 'held', string | number>>(
      await tx.execute(sql`
        with members as materialized (${membersOf(compiled, workspaceId, rules)}),
        received as materialized (${receivedOf(workspaceId, experiment.campaignId, '')}),
        reachable as (
          select distinct on (m.email) m.id, m.email from members m
          where ${reachable(workspaceId, rules)}
          order by m.email, m.id),
        reach as materialized (
          select m.id, m.email, ${share} as share from reachable m
          where ${experiment.everyone ? sql`true` : notReceived}),
        held as (
          insert into campaign_holdouts (workspace_id, experiment_id, profile_id, email)
          select ${workspaceId}::text, ${experiment.id}::text, id, email from reach where share = 0
          returning 1),
        stored as (
          insert into campaign_recipients (workspace_id, send_id, n, profile_id, email)
          select ${workspaceId}::text, (${textArray(sendIds)})[share],
            row_number() over (partition by share order by email), id, email
          from reach where share between 1 and ${sendIds.length}::int
          returning 1)
        select (select count(*) from members) as audience, (select count(*) from reachable) as reachable,
          (select count(*) from reach) as reach, (select count(*) from held) as held,
          (select count(*) from stored) as stored`),
    );
    const perSend = rows<{ send_id: string; recipients: string | number }>(
      await tx.execute(sql`
        select send_id, count(*) as recipients from campaign_recipients
        where workspace_id = ${workspaceId}::text and send_id = any(${textArray(sendIds)})
        group by send_id`),
    );
    const recipients = new Map(sendIds.map((id) => [id, 0]));
    for (const row of perSend) recipients.set(row.send_id, Number(row.recipients));
    for (const [sendId, count] of recipients) {
      await tx.execute(sql`
        insert into campaign_chunks (workspace_id, send_id, first_n, last_n)
        select ${workspaceId}::text, ${sendId}::text, g, least(g + ${chunkSize}::int - 1, ${count}::int)
        from generate_series(1, ${count}::int, ${chunkSize}::int) g`);
    }
    const result = {
      audience: Number(counts.audience),
      alreadyReceived: Number(counts.reachable) - Number(counts.reach),
      holdout: Number(counts.held),
      recipients,
    };
    await finish(tx, result);
    return result;
  });
}

/**
 * A journey email step's recipients: of `profileIds`, those reachable now (an address, consent,
 * not suppressed; one per address), numbered after the send's last recipient, in one chunk of their
 * own, in the caller's transaction. Answers the profile ids added.
 */
export async function addJourneyRecipients(
  tx: Tx,
  send: { workspaceId: string; id: string },
  profileIds: string[],
  rules: RecipientRules,
): Promise<string[]> {
  const [locked] = rows<{ recipients: number }>(
    await tx.execute(sql`
      select recipients from campaign_sends
      where workspace_id = ${send.workspaceId}::text and id = ${send.id}::text for update`),
  );
  if (!locked || !profileIds.length) return [];
  const added = rows<{ profile_id: string; n: number }>(
    await tx.execute(sql`
      with members as (
        select p.id, lower(btrim(p.attributes ->> ${rules.emailAttribute}::text)) as email, p.email_consent
        from customer_profiles p
        where p.workspace_id = ${send.workspaceId}::text and p.id = any(${textArray(profileIds)})),
      reach as (
        select distinct on (m.email) m.id, m.email from members m
        where ${reachable(send.workspaceId, rules)}
        order by m.email, m.id)
      insert into campaign_recipients (workspace_id, send_id, n, profile_id, email)
      select ${send.workspaceId}::text, ${send.id}::text,
        ${locked.recipients}::int + row_number() over (order by email), id, email
      from reach
      returning profile_id, n`),
  );
  if (!added.length) return [];
  const first = locked.recipients + 1;
  const last = locked.recipients + added.length;
  await tx.execute(sql`
    update campaign_sends set recipients = ${last}::int, audience_size = audience_size + ${profileIds.length}::int
    where workspace_id = ${send.workspaceId}::text and id = ${send.id}::text`);
  await tx.execute(sql`
    insert into campaign_chunks (workspace_id, send_id, first_n, last_n)
    values (${send.workspaceId}::text, ${send.id}::text, ${first}::int, ${last}::int)`);
  return added.map((row) => row.profile_id);
}

/**
 * Who a send of the campaign would reach now (the campaign screen), without writing anything:
 * `recipients` those no earlier send reached, `alreadyReceived` the other reachable ones. Each member
 * left out is counted once, for the first reason of: without an address, unsubscribed, consent unknown
 * (when the workspace does not mail it), suppressed or a second profile of the same address.
 */
export async function reachNow(
  db: Db,
  workspaceId: string,
  campaignId: string,
  compiled: CompiledCriteria,
  rules: RecipientRules,
) {
  const [row] = rows<Record<string, string | number>>(
    await withAudienceSettings(db, false, (tx) =>
      tx.execute(sql`
        with members as materialized (${membersOf(compiled, workspaceId, rules)}),
        received as materialized (${receivedOf(workspaceId, campaignId, '')})
        select count(*) as audience,
          count(*) filter (where m.email is null or not (${HAS_ADDRESS})) as without_email,
          count(*) filter (where ${HAS_ADDRESS} and m.email_consent = 'unsubscribed') as unsubscribed,
          count(*) filter (where ${HAS_ADDRESS} and m.email_consent = 'unknown'
            and not ${rules.mailUnknownConsent}::boolean) as unknown_consent,
          count(distinct m.email) filter (where ${reachable(workspaceId, rules)}) as reachable,
          count(distinct m.email) filter (where ${reachable(workspaceId, rules)} and ${notReceived}) as recipients
        from members m`),
    ),
  );
  const audience = Number(row.audience);
  const reachableNow = Number(row.reachable);
  const recipients = Number(row.recipients);
  const withoutEmail = Number(row.without_email);
  const unsubscribed = Number(row.unsubscribed);
  const unknownConsent = Number(row.unknown_consent);
  return {
    audience,
    recipients,
    withoutEmail,
    unsubscribed,
    alreadyReceived: reachableNow - recipients,
    unknownConsent,
    suppressed: Math.max(0, audience - reachableNow - withoutEmail - unsubscribed - unknownConsent),
  };
}

/** A queued send whose time has come becomes sending (once: the first lane to get here); answers the row. */
export async function startIfDue(db: Db, workspaceId: string, id: string) {
  await db.execute(sql`
    update campaign_sends set state = 'sending', started_at = now()
    where workspace_id = ${workspaceId}::text and id = ${id}::text and state = 'queued' and send_at <= now()`);
  return findSend(db, workspaceId, id);
}

/** Sends a lane may have work for: queued or sending (the sweep queues their lanes again). */
export async function activeSends(db: Db) {
  return db
    .select({ workspaceId: campaignSends.workspaceId, id: campaignSends.id, sendAt: campaignSends.sendAt })
    .from(campaignSends)
    .where(inArray(campaignSends.state, ['queued', 'sending']));
}

/**
 * When a sending send's lanes should look again: now when a chunk is free, else when the first lease
 * or hold ends; null when the send is not sending or has no open chunk.
 */
export async function nextWorkAt(db: Db, workspaceId: string, id: string): Promise<Date | null> {
  const [row] = rows<{ at: Date | string | null }>(
    await db.execute(sql`
      select min(greatest(coalesce(c.lease_until, now()), coalesce(c.not_before, now()))) as at
      from campaign_chunks c join campaign_sends s on s.workspace_id = c.workspace_id and s.id = c.send_id
      where c.workspace_id = ${workspaceId}::text and c.send_id = ${id}::text and not c.done
        and s.state = 'sending'`),
  );
  return row?.at ? new Date(row.at) : null;
}

/**
 * Claims one chunk of a sending send that nobody holds (or whose holder's lease ran out), under the
 * claim's name `owner` until the lease ends.
 */
export async function claimChunk(
  db: Db,
  send: { workspaceId: string; id: string },
  owner: string,
  leaseMs: number,
): Promise<ClaimedChunk | undefined> {
  const [row] = rows<{
    workspace_id: string;
    send_id: string;
    first_n: number;
    last_n: number;
  }>(
    await db.execute(sql`
      update campaign_chunks c
      set claimed_by = ${owner}::text, lease_until = now() + make_interval(secs => ${leaseMs / 1000}::float8)
      where (c.workspace_id, c.send_id, c.first_n) = (
        select k.workspace_id, k.send_id, k.first_n from campaign_chunks k
        join campaign_sends s on s.workspace_id = k.workspace_id and s.id = k.send_id
        where k.workspace_id = ${send.workspaceId}::text and k.send_id = ${send.id}::text
          and not k.done and s.state = 'sending'
          and (k.lease_until is null or k.lease_until < now())
          and (k.not_before is null or k.not_before <= now())
        order by k.first_n
        limit 1
        for update of k skip locked)
      returning c.workspace_id, c.send_id, c.first_n, c.last_n`),
  );
  return row
    ? {
        workspaceId: row.workspace_id,
        sendId: row.send_id,
        firstN: row.first_n,
        lastN: row.last_n,
        done: false,
        leaseUntil: null,
        claimedBy: owner,
        notBefore: null,
      }
    : undefined;
}

export interface PendingRecipient {
  n: number;
  profileId: string;
  email: string;
  attempts: number;
  /** The profile's attributes now; null when the profile was erased since the snapshot. */
  attributes: Record<string, unknown> | null;
  /** Suppressed or unsubscribed since the snapshot. */
  leftOut: boolean;
}

/** A chunk's recipients not sent yet, with their profiles' attributes as they are now. */
export async function pendingRecipients(db: Db, chunk: ChunkRow): Promise<PendingRecipient[]> {
  const found = rows<{
    n: number;
    profile_id: string;
    email: string;
    attempts: number;
    attributes: Record<string, unknown> | null;
    left_out: boolean;
  }>(
    await db.execute(sql`
      select r.n, r.profile_id, r.email, r.attempts, p.attributes,
        (p.email_consent = 'unsubscribed' or exists (
          select 1 from customer_suppressions s
          where s.workspace_id = r.workspace_id and (s.profile_id = r.profile_id or s.email = r.email))) as left_out
      from campaign_recipients r
      left join customer_profiles p on p.workspace_id = r.workspace_id and p.id = r.profile_id
      where r.workspace_id = ${chunk.workspaceId}::text and r.send_id = ${chunk.sendId}::text
        and r.n between ${chunk.firstN}::int and ${chunk.lastN}::int and r.status = 'pending'
      order by r.n`),
  );
  return found.map((row) => ({
    n: row.n,
    profileId: row.profile_id,
    email: row.email,
    attempts: row.attempts,
    attributes: row.attributes,
    leftOut: row.left_out === true,
  }));
}

/**
 * Records recipients the caller is about to hand over for good as in flight (`sending`), and renews
 * the claim's lease on their chunk, in one statement; records nothing and answers false when the chunk
 * is no longer held by this claim or the send was paused or cancelled (the caller must then send
 * nothing more). They count as sent only once the provider accepts them (`confirmSent`).
 */
export async function commitInFlight(
  db: Db | Tx,
  chunk: ClaimedChunk,
  leaseMs: number,
  numbers: number[],
): Promise<boolean> {
  const [row] = rows<{ held: boolean }>(
    await db.execute(sql`
      with held as (
        update campaign_chunks c
        set lease_until = now() + make_interval(secs => ${leaseMs / 1000}::float8)
        from campaign_sends s
        where c.workspace_id = ${chunk.workspaceId}::text and c.send_id = ${chunk.sendId}::text
          and c.first_n = ${chunk.firstN}::int and c.claimed_by = ${chunk.claimedBy}::text and not c.done
          and s.workspace_id = c.workspace_id and s.id = c.send_id and s.state = 'sending'
        returning 1),
      flying as (
        update campaign_recipients set status = 'sending', attempts = attempts + 1
        where workspace_id = ${chunk.workspaceId}::text and send_id = ${chunk.sendId}::text
          and n between ${chunk.firstN}::int and ${chunk.lastN}::int
          and n = any(${sql.param(numbers)}::int[]) and status = 'pending' and exists (select 1 from held)
        returning 1)
      select exists (select 1 from held) as held`),
  );
  return row.held === true;
}

/**
 * Recipients whose message the provider accepted: sent, counted on the send. Also when a takeover
 * marked them unconfirmed meanwhile (the acceptance came late, but it came): whoever holds the chunk.
 */
export async function confirmSent(db: Db | Tx, chunk: ChunkRow, numbers: number[]) {
  if (!numbers.length) return;
  await db.execute(sql`
    with confirmed as (
      update campaign_recipients r set status = 'sent', sent_at = now()
      from campaign_recipients old_r
      where r.workspace_id = ${chunk.workspaceId}::text and r.send_id = ${chunk.sendId}::text
        and r.n between ${chunk.firstN}::int and ${chunk.lastN}::int and r.n = any(${sql.param(numbers)}::int[])
        and r.status in ('sending', 'unconfirmed')
        and old_r.workspace_id = r.workspace_id and old_r.send_id = r.send_id and old_r.n = r.n
        -- Bounds the old rows' scan by itself too: a plan made while the table was small joins them
        -- by the send alone, and a send grown to thousands of recipients then reads them all a row.
        and old_r.n between ${chunk.firstN}::int and ${chunk.lastN}::int and old_r.n = any(${sql.param(numbers)}::int[])
      returning old_r.status as was)
    update campaign_sends
    set sent = sent + (select count(*) from confirmed)::int,
      unconfirmed = unconfirmed - (select count(*) from confirmed where was = 'unconfirmed')::int
    where workspace_id = ${chunk.workspaceId}::text and id = ${chunk.sendId}::text`);
}

/**
 * The chunk's recipients still in flight become unconfirmed, counted on the send, while this claim
 * holds it: when it is claimed (a dead or stalled holder's messages, never to be sent again) and when it is
 * let go (messages whose answer never came).
 */
export async function markUnconfirmed(db: Db | Tx, chunk: ClaimedChunk) {
  await db.execute(sql`
    with unconfirmed as (
      update campaign_recipients r set status = 'unconfirmed'
      where r.workspace_id = ${chunk.workspaceId}::text and r.send_id = ${chunk.sendId}::text
        and r.n between ${chunk.firstN}::int and ${chunk.lastN}::int and r.status = 'sending'
        and ${stillHeld(chunk)}
      returning 1)
    update campaign_sends set unconfirmed = unconfirmed + (select count(*) from unconfirmed)::int
    where workspace_id = ${chunk.workspaceId}::text and id = ${chunk.sendId}::text
      and exists (select 1 from unconfirmed)`);
}

/** While `chunk`'s claim still holds it: a holder taken over leaves its recipients to the new holder. */
const stillHeld = (chunk: ClaimedChunk) => sql`exists (
  select 1 from campaign_chunks c
  where c.workspace_id = ${chunk.workspaceId}::text and c.send_id = ${chunk.sendId}::text
    and c.first_n = ${chunk.firstN}::int and c.claimed_by = ${chunk.claimedBy}::text)`;

/**
 * Recipients that will never get this send (a permanent refusal, an erased or suppressed profile),
 * from pending or in flight, while the claim holds the chunk.
 */
export async function markFailed(db: Db | Tx, chunk: ClaimedChunk, failures: { n: number; error: string }[]) {
  if (!failures.length) return;
  const numbers = failures.map((f) => f.n);
  const errors = failures.map((f) => f.error.slice(0, 1000));
  const updated = rows(
    await db.execute(sql`
      with f as (select * from unnest(${sql.param(numbers)}::int[], ${sql.param(errors)}::text[]) as f(n, error))
      update campaign_recipients r set status = 'failed', error = f.error, attempts = r.attempts + 1
      from f
      where r.workspace_id = ${chunk.workspaceId}::text and r.send_id = ${chunk.sendId}::text
        and r.n between ${chunk.firstN}::int and ${chunk.lastN}::int and r.n = f.n
        and r.status in ('pending', 'sending') and ${stillHeld(chunk)}
      returning 1`),
  );
  await db
    .update(campaignSends)
    .set({ failed: sql`${campaignSends.failed} + ${updated.length}::int` })
    .where(sendKey(chunk.workspaceId, chunk.sendId));
}

/**
 * Recipients the provider deferred (or refused with a 4xx after the last part): pending again, while the
 * claim holds the chunk (a new holder may have sent them since, and its answer must find them in flight).
 */
export async function markDeferred(db: Db | Tx, chunk: ClaimedChunk, numbers: number[]) {
  if (!numbers.length) return;
  await db.execute(sql`
    update campaign_recipients set status = 'pending', attempts = attempts + 1
    where workspace_id = ${chunk.workspaceId}::text and send_id = ${chunk.sendId}::text
      and n between ${chunk.firstN}::int and ${chunk.lastN}::int and n = any(${sql.param(numbers)}::int[])
      and status in ('pending', 'sending') and ${stillHeld(chunk)}`);
}

/**
 * A done send's unconfirmed recipients become pending again and their chunks open, the send sending:
 * the sender chose to risk a second copy. Answers how many.
 */
export async function reopenUnconfirmed(tx: Tx, workspaceId: string, sendId: string) {
  const reopened = rows<{ n: number }>(
    await tx.execute(sql`
      update campaign_recipients set status = 'pending'
      where workspace_id = ${workspaceId}::text and send_id = ${sendId}::text and status = 'unconfirmed'
      returning n`),
  );
  if (!reopened.length) return 0;
  const numbers = reopened.map((row) => row.n);
  await tx.execute(sql`
    update campaign_chunks set done = false, claimed_by = null, lease_until = null, not_before = null
    where workspace_id = ${workspaceId}::text and send_id = ${sendId}::text
      and exists (select 1 from unnest(${sql.param(numbers)}::int[]) as u(n) where u.n between first_n and last_n)`);
  await tx
    .update(campaignSends)
    .set({
      state: 'sending',
      finishedAt: null,
      unconfirmed: sql`${campaignSends.unconfirmed} - ${reopened.length}::int`,
    })
    .where(sendKey(workspaceId, sendId));
  return reopened.length;
}

/**
 * Lets go of a chunk: done when none of its recipients is pending, else free again from `notBefore`.
 * Then, when the send has no open chunk left, it is done. Answers whether the send finished.
 */
export async function releaseChunk(tx: Tx, chunk: ClaimedChunk, notBefore: Date | null) {
  await tx.execute(sql`
    update campaign_chunks c
    set done = not exists (
          select 1 from campaign_recipients r
          where r.workspace_id = c.workspace_id and r.send_id = c.send_id
            and r.n between c.first_n and c.last_n and r.status = 'pending'),
        claimed_by = null, lease_until = null, not_before = ${notBefore}::timestamptz
    where c.workspace_id = ${chunk.workspaceId}::text and c.send_id = ${chunk.sendId}::text
      and c.first_n = ${chunk.firstN}::int and c.claimed_by = ${chunk.claimedBy}::text`);
  return finishIfDone(tx, chunk.workspaceId, chunk.sendId);
}

/** A sending send with no open chunk becomes done; answers whether it did now. */
export async function finishIfDone(tx: Tx, workspaceId: string, sendId: string) {
  const finished = rows(
    await tx.execute(sql`
      update campaign_sends s set state = 'done', finished_at = now()
      where s.workspace_id = ${workspaceId}::text and s.id = ${sendId}::text and s.state = 'sending'
        and s.snapshot_at is not null and s.journey_id is null
        and not exists (
          select 1 from campaign_chunks c
          where c.workspace_id = s.workspace_id and c.send_id = s.id and not c.done)
      returning 1`),
  );
  return finished.length === 1;
}

/** Resuming or cancelling: every lease on the send's chunks is dropped (a worker holding one stops). */
export async function dropLeases(tx: Tx, workspaceId: string, sendId: string) {
  await tx
    .update(campaignChunks)
    .set({ claimedBy: null, leaseUntil: null, notBefore: null })
    .where(and(eq(campaignChunks.workspaceId, workspaceId), eq(campaignChunks.sendId, sendId)));
}

/**
 * What recipients did with a send: people per kind, per hour (by their first time), and per link with
 * its clicks, repeats included.
 */
export async function engagementOf(db: Db, workspaceId: string, sendId: string) {
  const [counts] = rows<Record<string, string | number>>(
    await db.execute(sql`
      select
        count(distinct n) filter (where kind = 'open') as opened,
        count(distinct n) filter (where kind = 'click') as clicked,
        count(distinct n) filter (where kind = 'bounce') as bounced,
        count(distinct n) filter (where kind = 'complaint') as complained,
        count(distinct n) filter (where kind = 'unsubscribe') as unsubscribed
      from campaign_engagement where workspace_id = ${workspaceId}::text and send_id = ${sendId}::text`),
  );
  const timeline = rows<{ at: Date | string; opens: string | number; clicks: string | number }>(
    await db.execute(sql`
      select date_trunc('hour', first_at) as at,
        count(distinct n) filter (where kind = 'open') as opens,
        count(distinct n) filter (where kind = 'click') as clicks
      from campaign_engagement
      where workspace_id = ${workspaceId}::text and send_id = ${sendId}::text and kind in ('open', 'click')
      group by 1 order by 1`),
  );
  // One engagement row per recipient and link: its count is that recipient's clicks on the link.
  const links = rows<{ idx: number; url: string; people: string | number; total_clicks: string | number }>(
    await db.execute(sql`
      select l.idx, l.url, count(distinct e.n) as people, coalesce(sum(e.count), 0) as total_clicks
      from campaign_links l
      left join campaign_engagement e on e.workspace_id = l.workspace_id and e.send_id = l.send_id
        and e.kind = 'click' and e.link = l.idx
      where l.workspace_id = ${workspaceId}::text and l.send_id = ${sendId}::text
      group by l.idx, l.url order by l.idx`),
  );
  return {
    counts: {
      opened: Number(counts.opened),
      clicked: Number(counts.clicked),
      bounced: Number(counts.bounced),
      complained: Number(counts.complained),
      unsubscribed: Number(counts.unsubscribed),
    },
    timeline: timeline.map((row) => ({
      at: new Date(row.at).toISOString(),
      opens: Number(row.opens),
      clicks: Number(row.clicks),
    })),
    links: links.map((row) => ({
      idx: row.idx,
      url: row.url,
      people: Number(row.people),
      totalClicks: Number(row.total_clicks),
    })),
  };
}

/**
 * Claims `seconds` of a provider's sending time, shared by every process: answers how many
 * milliseconds from now the claimed time starts (0 when the provider is idle).
 */
export async function claimSendingTime(db: Db, provider: string, seconds: number): Promise<number> {
  const [row] = rows<{ wait_ms: number }>(
    await db.execute(sql`
      insert into campaign_rate as r (provider, next_at)
      values (${provider}::text, now() + make_interval(secs => ${seconds}::float8))
      on conflict (provider) do update
        set next_at = greatest(r.next_at, now()) + make_interval(secs => ${seconds}::float8)
      returning (extract(epoch from r.next_at - now()) - ${seconds}::float8) * 1000 as wait_ms`),
  );
  return Math.max(0, Number(row.wait_ms));
}

/** One recipient of a send with what became of the message and what they did with it. */
export interface RecipientResult {
  n: number;
  email: string;
  profileId: string;
  status: string;
  sentAt: Date | null;
  error: string | null;
  openedAt: Date | null;
  clickedAt: Date | null;
  clicks: number;
  bouncedAt: Date | null;
  complainedAt: Date | null;
  unsubscribedAt: Date | null;
}

/**
 * A page of a send's recipients in their order (keyset on n), each with the first time they opened,
 * clicked, bounced, complained and unsubscribed, and their clicks: a primary-key range, then one index
 * range of engagement per recipient.
 */
export async function recipientResults(
  db: Db,
  workspaceId: string,
  sendId: string,
  limit: number,
  after = 0,
): Promise<RecipientResult[]> {
  const found = rows<Record<string, unknown>>(
    await db.execute(sql`
      select r.n, r.email, r.profile_id, r.status, r.sent_at, r.error, e.*
      from (
        select * from campaign_recipients
        where workspace_id = ${workspaceId}::text and send_id = ${sendId}::text and n > ${after}::int
        order by n limit ${limit}::int
      ) r
      left join lateral (
        select min(first_at) filter (where kind = 'open') as opened_at,
          min(first_at) filter (where kind = 'click') as clicked_at,
          coalesce(sum(count) filter (where kind = 'click'), 0) as clicks,
          min(first_at) filter (where kind = 'bounce') as bounced_at,
          min(first_at) filter (where kind = 'complaint') as complained_at,
          min(first_at) filter (where kind = 'unsubscribe') as unsubscribed_at
        from campaign_engagement
        where workspace_id = r.workspace_id and send_id = r.send_id and n = r.n
      ) e on true
      order by r.n`),
  );
  const at = (value: unknown) => (value ? new Date(value as string | Date) : null);
  return found.map((row) => ({
    n: Number(row.n),
    email: String(row.email),
    profileId: String(row.profile_id),
    status: String(row.status),
    sentAt: at(row.sent_at),
    error: (row.error as string | null) ?? null,
    openedAt: at(row.opened_at),
    clickedAt: at(row.clicked_at),
    clicks: Number(row.clicks),
    bouncedAt: at(row.bounced_at),
    complainedAt: at(row.complained_at),
    unsubscribedAt: at(row.unsubscribed_at),
  }));
}
