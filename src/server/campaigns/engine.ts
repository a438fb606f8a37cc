import os from 'node:os';
import path from 'node:path';
import { EMAIL_EVENTS } from '@shared/api/campaigns';
import type { AppContext } from '../context';
import { insertEvents, type EventTuple } from '../customers/repository';
import { compiledAudience } from '../audiences/service';
import { dkimOptionsFor } from '../senders/service';
import { findRecipientSettings } from '../senders/repository';
import { randomId } from '../lib/ids';
import { commitThen, type Db, type Tx } from '../db/client';
import { enqueue, enqueueMany } from '../queue/queue';
import { CAMPAIGN_EXPERIMENT_QUEUE, CAMPAIGN_SEND_QUEUE, rowKey, type SendLane } from '../queue/queues';
import type { CompiledCriteria } from '../audiences/compile';
import * as experiments from './experiment-repository';
import { mimeOf, personalise } from './compose';
import { bounceRefusedRecipient } from './email-hooks';
import { ensureRecordedEvents } from './email-events';
import * as repo from './repository';
import {
  outboxTransport,
  ProviderRefusal,
  sendGridTransport,
  smtpTransport,
  type CampaignTransport,
  type HeldMessage,
} from './transports';

/** This process, in the names of the claims it makes. */
const PROCESS = `${os.hostname()}:${process.pid}`;
/**
 * A new name for one claim of a chunk: the lease is that claim's, not its process's, so a holder
 * whose lease ran out stops even when the claim that took it over was made in the same process.
 */
const claimName = () => `${PROCESS}:${randomId(8)}`;
/** After this many tries a deferred recipient fails for good. */
const MAX_ATTEMPTS = 5;
/** email-delivered events are written this many at a time. */
const EVENT_BATCH = 200;

/** Each app's (its configuration's) open provider connections. */
const transportsOf = new WeakMap<object, Map<string, CampaignTransport>>();

function transportFor(ctx: AppContext, provider: string): CampaignTransport {
  let transports = transportsOf.get(ctx.config);
  if (!transports) transportsOf.set(ctx.config, (transports = new Map()));
  const known = transports.get(provider);
  if (known) return known;
  const { config } = ctx;
  const transport =
    provider === 'sendgrid'
      ? sendGridTransport(config.sendgridApiKey ?? '', config.sendgridUrl)
      : config.smtpUrl
        ? smtpTransport(config.smtpUrl, config.campaigns.connections)
        : outboxTransport(path.join(config.dataDir, 'outbox'));
  transports.set(provider, transport);
  return transport;
}

/** Closes the app's provider connections (the app's close). */
export function closeTransports(ctx: AppContext) {
  for (const transport of transportsOf.get(ctx.config)?.values() ?? []) transport.close();
  transportsOf.delete(ctx.config);
}

/** A process claims this much of a provider's sending time at once. */
const CLAIM_MS = 200;

/**
 * At most `perSecond` messages a second to a provider, across every process (0: no limit): a process
 * claims CLAIM_MS of the provider's time in `campaign_rate` at once and spaces its messages over it.
 */
class SendingRate {
  private slots: number[] = [];
  private claiming: Promise<void> | undefined;

  constructor(
    private readonly db: Db,
    private readonly provider: string,
    private readonly perSecond: number,
  ) {}

  async take() {
    if (!this.perSecond) return;
    while (!this.slots.length) {
      await (this.claiming ??= this.claim().finally(() => (this.claiming = undefined)));
    }
    const wait = this.slots.shift()! - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }

  private async claim() {
    const count = Math.max(1, Math.round((this.perSecond * CLAIM_MS) / 1000));
    const start = Date.now() + (await repo.claimSendingTime(this.db, this.provider, count / this.perSecond));
    for (let i = 0; i < count; i++) this.slots.push(start + (i * 1000) / this.perSecond);
  }
}
const limitsOf = new WeakMap<object, Map<string, SendingRate>>();
const limitFor = (ctx: AppContext, provider: string) => {
  let limits = limitsOf.get(ctx.config);
  if (!limits) limitsOf.set(ctx.config, (limits = new Map()));
  let limit = limits.get(provider);
  if (!limit) {
    const { ratePerSecond } = ctx.config.campaigns;
    const perSecond = provider === 'sendgrid' ? ratePerSecond.sendgrid : ratePerSecond.smtp;
    limit = new SendingRate(ctx.db, provider, perSecond);
    limits.set(provider, limit);
  }
  return limit;
};

/**
 * Commits recipients as in flight in groups: each message waits, held, for the commit that records
 * it; messages that became ready while a commit ran go together in the next. Their last parts go to
 * the provider in the same step as the COMMIT goes to PostgreSQL (`commitThen`), so a process killed
 * at any moment leaves each message both recorded in flight and released, or neither. A commit that
 * finds the chunk no longer this process's (its lease was taken over) or the send no longer sending
 * records nothing, and its messages are dropped.
 */
class GroupCommit {
  private queue: { n: number; held: HeldMessage; resolve: (released?: Promise<void>) => void }[] = [];
  private running = false;
  stopped = false;

  constructor(
    private readonly ctx: AppContext,
    private readonly chunk: repo.ClaimedChunk,
  ) {}

  /** Answers the message's release (the provider's answer to its last part), or nothing if dropped. */
  add(n: number, held: HeldMessage): Promise<{ released: Promise<void> } | undefined> {
    if (this.stopped) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.queue.push({ n, held, resolve: (released) => resolve(released && { released }) });
      if (!this.running) void this.run();
    });
  }

  private async run() {
    this.running = true;
    while (this.queue.length) {
      const batch = this.queue.splice(0);
      let releases: Promise<void>[] | undefined;
      const releaseAll = () => {
        releases = batch.map((entry) => {
          const released = entry.held.release();
          released.catch(() => undefined);
          return released;
        });
      };
      if (!this.stopped) {
        try {
          const { chunk, ctx } = this;
          const numbers = batch.map((entry) => entry.n);
          const recorded = await commitThen(
            ctx.db,
            (tx) => repo.commitInFlight(tx, chunk, ctx.config.campaigns.leaseMs, numbers),
            releaseAll,
          );
          if (!recorded) this.stopped = true;
        } catch (err) {
          this.ctx.log.error(
            { err, send: this.chunk.sendId, released: !!releases },
            'campaign commit failed',
          );
          if (!releases) this.stopped = true;
        }
      }
      batch.forEach((entry, i) => entry.resolve(releases?.[i]));
    }
    this.running = false;
  }
}

/**
 * Records messages the provider accepted as sent in groups: those accepted while a write runs go
 * together in the next. A write that fails leaves its recipients in flight, so unconfirmed once the
 * chunk is let go.
 */
class Confirmations {
  private queue: { n: number; resolve: (recorded: boolean) => void }[] = [];
  private running = false;

  constructor(
    private readonly ctx: AppContext,
    private readonly chunk: repo.ChunkRow,
  ) {}

  /** Answers whether the recipient was recorded as sent. */
  add(n: number): Promise<boolean> {
    return new Promise((resolve) => {
      this.queue.push({ n, resolve });
      if (!this.running) void this.run();
    });
  }

  private async run() {
    this.running = true;
    while (this.queue.length) {
      const batch = this.queue.splice(0);
      let recorded = true;
      try {
        await repo.confirmSent(
          this.ctx.db,
          this.chunk,
          batch.map((entry) => entry.n),
        );
      } catch (err) {
        recorded = false;
        this.ctx.log.error({ err, send: this.chunk.sendId }, 'campaign acceptances not recorded');
      }
      for (const entry of batch) entry.resolve(recorded);
    }
    this.running = false;
  }
}

/** How a chunk's recipients that were not simply sent fared, written when the chunk is let go. */
class ChunkOutcomes {
  failures: { n: number; error: string }[] = [];
  bounced: { n: number; error: string }[] = [];
  deferred: number[] = [];
  retryAfterMs = 0;
  stopReason: string | undefined;

  fail(n: number, error: string) {
    this.failures.push({ n, error });
  }

  /**
   * Sorts a provider's refusal; true when nothing more should be sent (the provider refuses us). No
   * answer after the last part (`released`) leaves the recipient in flight: unconfirmed, never resent.
   */
  refused(recipient: repo.PendingRecipient, err: unknown, released: boolean) {
    const refusal =
      err instanceof ProviderRefusal
        ? err
        : new ProviderRefusal((err as Error).message ?? String(err), false);
    if (released && refusal.unanswered) return false;
    if (refusal.permanent || recipient.attempts + 1 >= MAX_ATTEMPTS) {
      this.fail(recipient.n, refusal.message);
      if (refusal.bounce) this.bounced.push({ n: recipient.n, error: refusal.message });
    } else {
      this.deferred.push(recipient.n);
      this.retryAfterMs = Math.max(this.retryAfterMs, refusal.retryAfterMs ?? 0);
    }
    if (refusal.fatal) this.stopReason = refusal.message;
    return refusal.fatal;
  }

  /** How long the chunk waits before it is claimed again: the provider's word, or a doubling backoff. */
  backoffMs(baseMs: number, attempts: number) {
    return this.deferred.length ? Math.max(this.retryAfterMs, baseMs * 2 ** Math.min(6, attempts)) : 0;
  }
}

/** Runs `work` over `items` with at most `limit` at once. */
async function eachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]);
  });
  await Promise.all(lanes);
}

/**
 * Sends one claimed chunk: recipients a previous holder left in flight become unconfirmed; then each
 * pending recipient's message is held at the provider, recorded as in flight in a group commit,
 * released, and recorded as sent once the provider accepts it. Recipients erased, unsubscribed or
 * suppressed since the snapshot fail with the reason; deferred ones go back to pending and the chunk
 * waits before it is claimed again; those whose answer never came are unconfirmed.
 */
async function workChunk(ctx: AppContext, chunk: repo.ClaimedChunk, stopping: AbortSignal) {
  const send = await repo.findSend(ctx.db, chunk.workspaceId, chunk.sendId);
  if (!send) return;
  const content = send.content;
  const { publicUrl, secret } = ctx.config;
  const dkim = await dkimOptionsFor(ctx, send.workspaceId, content.fromAddress);
  const transport = transportFor(ctx, send.provider);
  const limit = limitFor(ctx, send.provider);
  const unsubscribeMailto = content.replyTo || content.fromAddress;
  await repo.markUnconfirmed(ctx.db, chunk);
  const recipients = await repo.pendingRecipients(ctx.db, chunk);

  const outcomes = new ChunkOutcomes();
  const delivered: EventTuple[] = [];
  const commit = new GroupCommit(ctx, chunk);
  const confirmations = new Confirmations(ctx, chunk);
  const recording: Promise<void>[] = [];
  const flushDelivered = async (all: boolean) => {
    while (delivered.length >= (all ? 1 : EVENT_BATCH)) {
      await insertEvents(ctx.db, send.workspaceId, delivered.splice(0, EVENT_BATCH));
    }
  };

  const sendOne = async (recipient: repo.PendingRecipient) => {
    if (commit.stopped || stopping.aborted) return;
    if (!recipient.attributes) return outcomes.fail(recipient.n, 'The profile was erased');
    if (recipient.leftOut)
      return outcomes.fail(recipient.n, 'Unsubscribed or suppressed since the send began');
    const message = personalise(
      content,
      send,
      { ...recipient, attributes: recipient.attributes },
      {
        publicUrl,
        secret,
        unsubscribeMailto,
      },
    );
    await limit.take();
    let held: HeldMessage;
    try {
      held = await transport.hold(message, () => mimeOf(message, dkim));
    } catch (err) {
      return refused(recipient, err, false);
    }
    const committed = await commit.add(recipient.n, held);
    if (!committed) return held.abort();
    try {
      await committed.released;
    } catch (err) {
      return refused(recipient, err, true);
    }
    // Recorded while the next message goes: the record waits for the send's row, which a journey's
    // step adding recipients to the send holds until it commits.
    const acceptedAt = new Date().toISOString();
    recording.push(
      confirmations.add(recipient.n).then((recorded) => {
        if (!recorded) return;
        delivered.push([
          recipient.profileId,
          EMAIL_EVENTS.delivered,
          acceptedAt,
          { campaign: send.campaignId, send: send.id },
          `${send.id}:${recipient.n}:delivered:0`,
        ]);
      }),
    );
    if (delivered.length >= EVENT_BATCH) await flushDelivered(false);
  };

  const refused = (recipient: repo.PendingRecipient, err: unknown, released: boolean) => {
    if (outcomes.refused(recipient, err, released)) commit.stopped = true;
  };

  try {
    await eachLimited(recipients, Math.max(1, ctx.config.campaigns.connections), sendOne);
  } finally {
    await Promise.all(recording);
    await flushDelivered(true).catch((err) => ctx.log.error({ err }, 'email-delivered events not recorded'));
    await repo.markFailed(ctx.db, chunk, outcomes.failures);
    for (const bounce of outcomes.bounced) {
      await bounceRefusedRecipient(
        ctx,
        { workspaceId: send.workspaceId, sendId: send.id, n: bounce.n },
        bounce.error,
      );
    }
    await repo.markDeferred(ctx.db, chunk, outcomes.deferred);
    const backoff = outcomes.backoffMs(ctx.config.campaigns.retryBaseMs, recipients[0]?.attempts ?? 0);
    const finished = await ctx.db.transaction(async (tx) => {
      if (outcomes.stopReason) {
        await repo.setState(tx, send.workspaceId, send.id, 'paused', { error: outcomes.stopReason });
      }
      await repo.markUnconfirmed(tx, chunk);
      return repo.releaseChunk(tx, chunk, backoff ? new Date(Date.now() + backoff) : null);
    });
    if (finished) ctx.log.info({ send: send.id, campaign: send.campaignId }, 'campaign send done');
  }
}

/**
 * Splits an experiment's audience across its test sends (the first of them to start does it, for all):
 * they all start, and the pick of the winner is queued for when the wait is over.
 */
async function splitExperiment(
  ctx: AppContext,
  send: repo.SendRow,
  compiled: CompiledCriteria,
  rules: repo.RecipientRules,
) {
  const { workspaceId } = send;
  const experiment = await experiments.findExperiment(ctx.db, workspaceId, send.experimentId!);
  if (!experiment || experiment.testedAt) return;
  const tests = (await experiments.experimentSends(ctx.db, workspaceId, experiment.id)).filter(
    (each) => each.variant !== 'winner',
  );
  await repo.splitRecipients(
    ctx.db,
    { workspaceId, id: experiment.id, campaignId: send.campaignId, everyone: send.everyone },
    tests.map((each) => each.id),
    experiments.shareSql(experiment),
    compiled,
    rules,
    ctx.config.campaigns.chunkSize,
    async (tx, counts) => {
      const now = new Date();
      for (const test of tests) {
        // The test sends share their time: those whose lanes have not run yet start with this one.
        if (test.state === 'queued')
          await repo.setState(tx, workspaceId, test.id, 'sending', { startedAt: now });
        await repo.recordSnapshot(tx, workspaceId, test.id, {
          audience: counts.audience,
          recipients: counts.recipients.get(test.id) ?? 0,
          alreadyReceived: counts.alreadyReceived,
        });
        await repo.finishIfDone(tx, workspaceId, test.id);
      }
      const decideAt = new Date(now.getTime() + experiment.settings.waitHours * 3_600_000);
      await experiments.updateExperiment(tx, workspaceId, experiment.id, {
        testedAt: now,
        decideAt,
        holdout: counts.holdout,
      });
      const key = { workspaceId, id: experiment.id };
      await enqueue(tx, CAMPAIGN_EXPERIMENT_QUEUE, key, { singletonKey: rowKey(key), startAfter: decideAt });
    },
  );
}

/** Snapshots a send's audience and lets its chunks be claimed; a send whose audience is gone stops. */
async function snapshotSend(ctx: AppContext, workspaceId: string, sendId: string) {
  const send = await repo.findSend(ctx.db, workspaceId, sendId);
  if (!send || send.state !== 'sending' || send.snapshotAt) return;
  await ensureRecordedEvents(ctx, workspaceId);
  const compiled = await compiledAudience(ctx, workspaceId, send.audienceId, new Date());
  if (!compiled) {
    await ctx.db.transaction(async (tx) => {
      await repo.setState(tx, workspaceId, sendId, 'cancelled', {
        finishedAt: new Date(),
        error: "The campaign's audience no longer exists",
      });
      if (send.experimentId) await experiments.cancelExperiment(tx, workspaceId, send.experimentId);
    });
    return;
  }
  // The workspace's rules as they are when the audience is taken, not when the send was asked for.
  const rules = await findRecipientSettings(ctx.db, workspaceId);
  if (send.experimentId && send.variant !== 'winner') return splitExperiment(ctx, send, compiled, rules);
  const experiment = send.experimentId
    ? await experiments.findExperiment(ctx.db, workspaceId, send.experimentId)
    : undefined;
  await repo.snapshotRecipients(
    ctx.db,
    send,
    compiled,
    rules,
    ctx.config.campaigns.chunkSize,
    async (tx, counts) => {
      await repo.recordSnapshot(tx, workspaceId, sendId, counts);
      await repo.finishIfDone(tx, workspaceId, sendId);
    },
    experiment && experiments.holdoutLeftOut(experiment),
  );
}

/** Lanes per send: jobs that work its chunks side by side, in whichever processes run jobs. */
const SEND_LANES = 4;
/** A lane works this long, then queues itself again, so no job runs for the length of a whole send. */
const LANE_BUDGET_MS = 20_000;

const laneKey = (lane: SendLane) => `${lane.workspaceId}/${lane.id}/${lane.lane}`;

/**
 * Queues the send's lanes (in the caller's transaction) to start at `startAfter`: a lane already
 * waiting keeps its place.
 */
export async function queueSendLanes(
  db: Db | Tx,
  send: { workspaceId: string; id: string },
  startAfter?: Date,
) {
  await enqueueMany(
    db,
    CAMPAIGN_SEND_QUEUE,
    Array.from({ length: SEND_LANES }, (_, lane) => {
      const data = { workspaceId: send.workspaceId, id: send.id, lane };
      return { data, singletonKey: laneKey(data), ...(startAfter ? { startAfter } : {}) };
    }),
  );
}

/**
 * A lane's job: a due send starts (the first lane snapshots its audience), then the lane claims and
 * sends chunks for up to LANE_BUDGET_MS and queues itself for when there is more to do: at once, or
 * when the first lease or hold ends (so a dead process's chunks are taken over).
 */
export async function workSendLanes(ctx: AppContext, lanes: SendLane[], stopping: AbortSignal) {
  for (const lane of lanes) {
    const send = await repo.startIfDue(ctx.db, lane.workspaceId, lane.id);
    if (!send || send.state !== 'sending') continue;
    if (!send.snapshotAt) await snapshotSend(ctx, lane.workspaceId, lane.id);
    const deadline = Date.now() + LANE_BUDGET_MS;
    while (!stopping.aborted && Date.now() < deadline) {
      const chunk = await repo.claimChunk(ctx.db, send, claimName(), ctx.config.campaigns.leaseMs);
      if (!chunk) break;
      await workChunk(ctx, chunk, stopping);
    }
    const next = await repo.nextWorkAt(ctx.db, lane.workspaceId, lane.id);
    if (next)
      await enqueue(ctx.db, CAMPAIGN_SEND_QUEUE, lane, { singletonKey: laneKey(lane), startAfter: next });
  }
}

/** The sweep's part: every queued or sending send has its lanes queued (rows whose jobs were lost). */
export async function queueActiveSends(ctx: AppContext) {
  for (const send of await repo.activeSends(ctx.db)) await queueSendLanes(ctx.db, send, send.sendAt);
}
