import type { ExperimentResults } from '@shared/api/campaigns';
import { pickWinner, ruleRate, type VariantFigures } from '@shared/campaigns/experiment';
import { wilsonInterval } from '@shared/stats/proportion';
import type { AppContext } from '../context';
import type { Db, Tx } from '../db/client';
import { randomId } from '../lib/ids';
import { enqueue } from '../queue/queue';
import { CAMPAIGN_EXPERIMENT_QUEUE, rowKey, type RowKey } from '../queue/queues';
import { queueSendLanes } from './engine';
import * as experiments from './experiment-repository';
import * as repo from './repository';

/** A test send not finished when the wait is over: the pick looks again this much later. */
const RECHECK_MS = 60_000;

function conversionWindow(experiment: experiments.ExperimentRow): experiments.ConversionWindow | null {
  const { conversionEvent, windowHours } = experiment.settings;
  if (!conversionEvent || !windowHours || !experiment.testedAt) return null;
  const from = experiment.testedAt;
  return { event: conversionEvent, from, until: new Date(from.getTime() + windowHours * 3_600_000) };
}

/** Each send's figures (a test send's by its variant's letter, the winner's as `winner`). */
async function figuresOf(db: Db | Tx, experiment: experiments.ExperimentRow, sends: repo.SendRow[]) {
  const found = await experiments.sendFigures(
    db,
    experiment.workspaceId,
    experiment.id,
    conversionWindow(experiment),
  );
  return sends.map((send): VariantFigures => ({
    key: send.variant ?? '',
    recipients: send.recipients,
    delivered: send.sent,
    ...(found.get(send.id) ?? { opened: 0, clicked: 0, converted: 0 }),
  }));
}

/**
 * Picks an experiment's winner once its wait is over, in one transaction with the experiment locked:
 * the rule's figures of each test send, the winner and why, and the winner's send to the rest (queued,
 * its content and links its variant's). An experiment already decided or cancelled does nothing, so a
 * job run twice sends the winner once; one whose test sends are not all done looks again later.
 */
async function decideExperiment(ctx: AppContext, key: RowKey) {
  await ctx.db.transaction(async (tx) => {
    const experiment = await experiments.lockExperiment(tx, key.workspaceId, key.id);
    if (!experiment || experiment.state !== 'testing' || !experiment.decideAt) return;
    const later = (at: Date) =>
      enqueue(tx, CAMPAIGN_EXPERIMENT_QUEUE, key, { singletonKey: rowKey(key), startAfter: at });
    if (experiment.decideAt.getTime() > Date.now()) return later(experiment.decideAt);
    const tests = (await experiments.experimentSends(tx, key.workspaceId, key.id)).filter(
      (send) => send.variant !== 'winner',
    );
    if (tests.some((send) => send.state === 'cancelled'))
      return experiments.cancelExperiment(tx, key.workspaceId, key.id);
    if (tests.some((send) => send.state !== 'done')) return later(new Date(Date.now() + RECHECK_MS));
    const { winner, reason } = pickWinner(
      experiment.settings.winnerBy,
      await figuresOf(tx, experiment, tests),
    );
    const source = tests.find((send) => send.variant === winner)!;
    const send = await repo.insertSend(
      tx,
      {
        workspaceId: source.workspaceId,
        id: randomId(16),
        campaignId: source.campaignId,
        campaignVersion: source.campaignVersion,
        experimentId: experiment.id,
        variant: 'winner',
        emailId: source.emailId,
        emailVersion: source.emailVersion,
        audienceId: source.audienceId,
        senderId: source.senderId,
        provider: source.provider,
        everyone: source.everyone,
        state: 'queued',
        content: source.content,
        sendAt: new Date(),
        createdBy: source.createdBy,
        createdByName: source.createdByName,
      },
      await experiments.linksOf(tx, source.workspaceId, source.id),
    );
    await queueSendLanes(tx, send);
    await experiments.updateExperiment(tx, key.workspaceId, key.id, {
      state: 'decided',
      decidedAt: new Date(),
      winner,
      reason,
      winnerSendId: send.id,
    });
    ctx.log.info({ experiment: key.id, winner, send: send.id }, 'campaign experiment decided');
  });
}

/** The job of experiments whose winner is due. */
export async function decideExperiments(ctx: AppContext, keys: RowKey[]) {
  for (const key of keys) await decideExperiment(ctx, key);
}

const iso = (at: Date | null) => (at ? at.toISOString() : null);

/** An experiment's results: per variant its figures with intervals, the winner and why, the holdout. */
export async function experimentResults(
  db: Db,
  workspaceId: string,
  experimentId: string,
): Promise<ExperimentResults | null> {
  const experiment = await experiments.findExperiment(db, workspaceId, experimentId);
  if (!experiment) return null;
  const sends = await experiments.experimentSends(db, workspaceId, experimentId);
  const figures = await figuresOf(db, experiment, sends);
  const window = conversionWindow(experiment);
  const holdout =
    experiment.settings.holdoutPercent > 0 && experiment.testedAt
      ? await experiments.holdoutFigures(db, workspaceId, experimentId, window)
      : null;
  const holdoutRate = holdout && window ? wilsonInterval(holdout.converted, holdout.members) : null;
  const present = (send: repo.SendRow, index: number) => {
    const row = figures[index];
    const converted = ruleRate('conversion', row);
    return {
      ...row,
      sendId: send.id,
      subject: send.content.subject,
      fromName: send.content.fromName,
      emailId: send.emailId,
      rates: { opened: ruleRate('opens', row), clicked: ruleRate('clicks', row), converted },
      lift: holdoutRate && holdout!.members > 0 ? converted.rate - holdoutRate.rate : null,
    };
  };
  const presented = sends.map(present);
  const { settings } = experiment;
  return {
    id: experiment.id,
    state: experiment.state as ExperimentResults['state'],
    testPercent: settings.testPercent,
    holdoutPercent: settings.holdoutPercent,
    waitHours: settings.waitHours,
    winnerBy: settings.winnerBy,
    conversionEvent: settings.conversionEvent ?? null,
    windowHours: settings.windowHours ?? null,
    testedAt: iso(experiment.testedAt),
    decideAt: iso(experiment.decideAt),
    decidedAt: iso(experiment.decidedAt),
    winner: experiment.winner,
    reason: experiment.reason,
    variants: presented.filter((entry) => entry.key !== 'winner'),
    winnerSend: presented.find((entry) => entry.key === 'winner') ?? null,
    holdout: holdout && { ...holdout, rate: holdoutRate ?? wilsonInterval(0, holdout.members) },
  };
}
