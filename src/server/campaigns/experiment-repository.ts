import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { rows } from '../db/migrate';
import { campaignExperiments, campaignLinks, campaignSends } from '../db/schema';
import { experimentShares } from '@shared/campaigns/experiment';
import { shareOfSql, splitDrawSql } from '../lib/split';
import { insertJobsFrom } from '../queue/queue';
import { CAMPAIGN_EXPERIMENT_QUEUE, rowJobs, SWEEP_LIMIT } from '../queue/queues';

export type ExperimentRow = typeof campaignExperiments.$inferSelect;

const experimentKey = (workspaceId: string, id: string) =>
  and(eq(campaignExperiments.workspaceId, workspaceId), eq(campaignExperiments.id, id));

export async function insertExperiment(tx: Tx, row: typeof campaignExperiments.$inferInsert) {
  const [experiment] = await tx.insert(campaignExperiments).values(row).returning();
  return experiment;
}

export async function findExperiment(db: Db | Tx, workspaceId: string, id: string) {
  const [row] = await db.select().from(campaignExperiments).where(experimentKey(workspaceId, id));
  return row;
}

/** The experiment row locked for its decision. */
export async function lockExperiment(tx: Tx, workspaceId: string, id: string) {
  const [row] = await tx
    .select()
    .from(campaignExperiments)
    .where(experimentKey(workspaceId, id))
    .for('update');
  return row;
}

export async function updateExperiment(
  tx: Tx,
  workspaceId: string,
  id: string,
  change: Partial<typeof campaignExperiments.$inferInsert>,
) {
  await tx.update(campaignExperiments).set(change).where(experimentKey(workspaceId, id));
}

/**
 * An experiment stops testing: its test sends not finished are cancelled, and no winner is picked.
 * Nothing when it is not testing.
 */
export async function cancelExperiment(tx: Tx, workspaceId: string, id: string) {
  const cancelled = rows(
    await tx.execute(sql`
      update campaign_experiments set state = 'cancelled', decided_at = now()
      where workspace_id = ${workspaceId}::text and id = ${id}::text and state = 'testing'
      returning 1`),
  );
  if (!cancelled.length) return;
  await tx.execute(sql`
    update campaign_sends set state = 'cancelled', finished_at = now()
    where workspace_id = ${workspaceId}::text and experiment_id = ${id}::text
      and state in ('queued', 'sending', 'paused')`);
}

/** The campaign's experiment still testing (its winner not picked yet), if any. */
export async function testingExperiment(db: Db | Tx, workspaceId: string, campaignId: string) {
  const [row] = await db
    .select()
    .from(campaignExperiments)
    .where(
      and(
        eq(campaignExperiments.workspaceId, workspaceId),
        eq(campaignExperiments.campaignId, campaignId),
        eq(campaignExperiments.state, 'testing'),
      ),
    )
    .limit(1);
  return row;
}

/** The experiment's sends: its test sends in variant order, then the winner's send if there is one. */
export async function experimentSends(db: Db | Tx, workspaceId: string, experimentId: string) {
  const found = await db
    .select()
    .from(campaignSends)
    .where(and(eq(campaignSends.workspaceId, workspaceId), eq(campaignSends.experimentId, experimentId)))
    .orderBy(asc(campaignSends.variant));
  return [
    ...found.filter((send) => send.variant !== 'winner'),
    ...found.filter((send) => send.variant === 'winner'),
  ];
}

/** A send's links in their order (a winner's send carries its variant's, so its click tokens read alike). */
export async function linksOf(db: Db | Tx, workspaceId: string, sendId: string) {
  const found = await db
    .select({ url: campaignLinks.url })
    .from(campaignLinks)
    .where(and(eq(campaignLinks.workspaceId, workspaceId), eq(campaignLinks.sendId, sendId)))
    .orderBy(asc(campaignLinks.idx));
  return found.map((row) => row.url);
}

/** A job for each experiment whose winner is due (the sweep: experiments whose job was lost). */
export const queueDueExperiments = (db: Db) =>
  db.execute(
    insertJobsFrom(
      CAMPAIGN_EXPERIMENT_QUEUE,
      rowJobs(sql`campaign_experiments where state = 'testing' and decide_at <= now() limit ${SWEEP_LIMIT}`),
    ),
  );

/** A conversion: the event, counted from `from` until `until`. */
export interface ConversionWindow {
  event: string;
  from: Date;
  until: Date;
}

const converts = (workspaceId: string, profileId: SQL, window: ConversionWindow) => sql`
  exists (
    select 1 from customer_events ev
    where ev.workspace_id = ${workspaceId}::text and ev.event = ${window.event}::text
      and ev.profile_id = ${profileId} and ev.at >= ${window.from.toISOString()}::timestamptz
      and ev.at < ${window.until.toISOString()}::timestamptz)`;

/**
 * Per send of the experiment: recipients, delivered (sent), the recipients who opened and who clicked,
 * and those who converted within the window (none without one).
 */
export async function sendFigures(
  db: Db | Tx,
  workspaceId: string,
  experimentId: string,
  window: ConversionWindow | null,
) {
  const found = rows<Record<'send_id' | 'opened' | 'clicked' | 'converted', string | number>>(
    await db.execute(sql`
      select s.id as send_id,
        (select count(distinct e.n) from campaign_engagement e
          where e.workspace_id = s.workspace_id and e.send_id = s.id and e.kind = 'open') as opened,
        (select count(distinct e.n) from campaign_engagement e
          where e.workspace_id = s.workspace_id and e.send_id = s.id and e.kind = 'click') as clicked,
        ${
          window
            ? sql`(select count(*) from campaign_recipients r
                where r.workspace_id = s.workspace_id and r.send_id = s.id
                  and ${converts(workspaceId, sql`r.profile_id`, window)})`
            : sql`0`
        } as converted
      from campaign_sends s
      where s.workspace_id = ${workspaceId}::text and s.experiment_id = ${experimentId}::text`),
  );
  return new Map(
    found.map((row) => [
      String(row.send_id),
      { opened: Number(row.opened), clicked: Number(row.clicked), converted: Number(row.converted) },
    ]),
  );
}

/** The holdout's members, and those who converted within the window (none without one). */
export async function holdoutFigures(
  db: Db | Tx,
  workspaceId: string,
  experimentId: string,
  window: ConversionWindow | null,
) {
  const [row] = rows<Record<'members' | 'converted', string | number>>(
    await db.execute(sql`
      select count(*) as members,
        count(*) filter (where ${window ? converts(workspaceId, sql`h.profile_id`, window) : sql`false`}) as converted
      from campaign_holdouts h
      where h.workspace_id = ${workspaceId}::text and h.experiment_id = ${experimentId}::text`),
  );
  return { members: Number(row.members), converted: Number(row.converted) };
}

/** Each profile's share of the experiment's split, over `m.id`: 0 the holdout, 1… the variants, -1 the rest. */
export const shareSql = (experiment: Pick<ExperimentRow, 'id' | 'settings'>) =>
  shareOfSql(experimentShares(experiment.settings), splitDrawSql(sql`m.id`, experiment.id));

/**
 * Members the winner's send leaves out, over `m`: the holdout taken at the split (by profile or
 * address), and members who joined the audience since and draw the holdout's share.
 */
export const holdoutLeftOut = (experiment: Pick<ExperimentRow, 'workspaceId' | 'id' | 'settings'>) => sql`
  not exists (
    select 1 from campaign_holdouts h
    where h.workspace_id = ${experiment.workspaceId}::text and h.experiment_id = ${experiment.id}::text
      and (h.profile_id = m.id or h.email = m.email))
  and ${shareOfSql([experiment.settings.holdoutPercent], splitDrawSql(sql`m.id`, experiment.id))} <> 0`;
