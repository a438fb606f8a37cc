import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { rows } from '../db/migrate';

/** What a recipient did with a send (`campaign_engagement.kind`). */
export type EngagementKind = 'open' | 'click' | 'bounce' | 'complaint' | 'unsubscribe';

export interface Engagement {
  workspaceId: string;
  sendId: string;
  /** The recipient's number in the send. */
  n: number;
  kind: EngagementKind;
  /** The link's number of a click; 0 (the default) for the other kinds. */
  link?: number;
  /** When it happened (a provider's event time); now when not given. */
  at?: Date;
}

/**
 * Records one engagement of a recipient: the first makes its row (with its time), a repeat adds to the
 * row's count and keeps the earliest time. With `once`, a repeat changes nothing (a click that stands
 * for an open the mail client's blocked images never reported). Answers whether this was the first.
 */
export async function recordEngagement(
  db: Db | Tx,
  engagement: Engagement,
  options: { once?: boolean } = {},
): Promise<boolean> {
  const at = (engagement.at ?? new Date()).toISOString();
  const [row] = rows<{ first: boolean }>(
    await db.execute(sql`
      insert into campaign_engagement as e (workspace_id, send_id, n, kind, link, first_at, count)
      values (${engagement.workspaceId}::text, ${engagement.sendId}::text, ${engagement.n}::int,
        ${engagement.kind}::text, ${engagement.link ?? 0}::int, ${at}::timestamptz, 1)
      on conflict (workspace_id, send_id, n, kind, link) do ${
        options.once
          ? sql`nothing`
          : sql`update set count = e.count + 1, first_at = least(e.first_at, excluded.first_at)`
      }
      returning (xmax = 0) as first`),
  );
  return row?.first === true;
}
