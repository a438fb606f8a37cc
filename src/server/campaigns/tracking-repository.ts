import { sql } from 'drizzle-orm';
import type { EmailConsentState } from '@shared/api/customers';
import type { Db, Tx } from '../db/client';
import { rows } from '../db/migrate';

/** A send's recipient as a token names it, with what its public routes need of the send. */
export interface RecipientRecord {
  workspace_id: string;
  send_id: string;
  n: number;
  profile_id: string;
  /** Lowercased, as the suppression list keeps addresses. */
  email: string;
  campaign_id: string;
  /** Opens and clicks are recorded (the send's content says so). */
  tracking: boolean;
  workspace_name: string;
}

export async function findRecipient(db: Db | Tx, workspaceId: string, sendId: string, n: number) {
  const [row] = rows<RecipientRecord>(
    await db.execute(sql`
      select r.workspace_id, r.send_id, r.n, r.profile_id, lower(r.email) as email, s.campaign_id,
        coalesce(s.content->>'tracking' = 'true', false) as tracking, w.name as workspace_name
      from campaign_recipients r
      join campaign_sends s on s.workspace_id = r.workspace_id and s.id = r.send_id
      join workspaces w on w.id = r.workspace_id
      where r.workspace_id = ${workspaceId}::text and r.send_id = ${sendId}::text and r.n = ${n}::int`),
  );
  return row;
}

/** The URL of a send's link by its number, or undefined when the message has no such link. */
export async function findLinkUrl(db: Db, workspaceId: string, sendId: string, idx: number) {
  const [row] = rows<{ url: string }>(
    await db.execute(sql`
      select url from campaign_links
      where workspace_id = ${workspaceId}::text and send_id = ${sendId}::text and idx = ${idx}::int`),
  );
  return row?.url;
}

/**
 * Whether the recipient's address is unsubscribed: its profile's consent says so, or the address or
 * profile is on the suppression list as unsubscribed (also when the profile was erased since).
 */
export async function isUnsubscribed(db: Db | Tx, recipient: RecipientRecord) {
  const [row] = rows<{ unsubscribed: boolean }>(
    await db.execute(sql`
      select exists (
        select 1 from customer_profiles
        where workspace_id = ${recipient.workspace_id}::text and id = ${recipient.profile_id}::text
          and email_consent = 'unsubscribed'
      ) or exists (
        select 1 from customer_suppressions
        where workspace_id = ${recipient.workspace_id}::text and reason = 'unsubscribed'
          and (email = ${recipient.email}::text or profile_id = ${recipient.profile_id}::text)
      ) as unsubscribed`),
  );
  return row?.unsubscribed === true;
}

/**
 * Sets a profile's email consent with its time and source, where it differs. Answers whether it
 * changed; false also when there is no such profile (it was erased).
 */
export async function setEmailConsent(
  tx: Tx,
  workspaceId: string,
  profileId: string,
  state: EmailConsentState,
  source: string,
) {
  return (
    rows<{ id: string }>(
      await tx.execute(sql`
        update customer_profiles set email_consent = ${state}::text, email_consent_at = clock_timestamp(),
          email_consent_source = ${source}::text
        where workspace_id = ${workspaceId}::text and id = ${profileId}::text
          and email_consent <> ${state}::text
        returning id`),
    ).length > 0
  );
}

/**
 * Whether events may be written on the profile: it exists (it may have been erased since the send) and
 * its id is not on the suppression list (which keeps imports and tracked events out too).
 */
export async function mayWriteEvents(db: Db | Tx, workspaceId: string, profileId: string) {
  const [row] = rows<{ writable: boolean }>(
    await db.execute(sql`
      select exists (
        select 1 from customer_profiles where workspace_id = ${workspaceId}::text and id = ${profileId}::text
      ) and not exists (
        select 1 from customer_suppressions
        where workspace_id = ${workspaceId}::text and profile_id = ${profileId}::text
      ) as writable`),
  );
  return row?.writable === true;
}

/**
 * Removes the `unsubscribed` entries of an address or profile from the suppression list, never one
 * of another reason (a bounce, a complaint, an erasure or a manager's entry stays). Answers their ids.
 */
export async function deleteUnsubscribedSuppressions(
  tx: Tx,
  workspaceId: string,
  email: string,
  profileId: string,
) {
  return rows<{ id: string }>(
    await tx.execute(sql`
      delete from customer_suppressions
      where workspace_id = ${workspaceId}::text and reason = 'unsubscribed'
        and (email = ${email}::text or profile_id = ${profileId}::text)
      returning id`),
  ).map((row) => row.id);
}
