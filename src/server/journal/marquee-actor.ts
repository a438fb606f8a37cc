/** Who writes what Marquee does by itself, with no member behind it: items, their history and audit rows name it. */
export const MARQUEE_ACTOR = { id: 'marquee', name: 'Marquee' } as const;

/**
 * The name of whoever wrote a version: their display name in the workspace, else their account's name,
 * else Marquee's own for what Marquee wrote; null when nothing names the writer (UNKNOWN USER).
 */
export function writerName(
  by: string,
  memberName: string | null | undefined,
  userName: string | null | undefined,
): string | null {
  return memberName ?? userName ?? (by === MARQUEE_ACTOR.id ? MARQUEE_ACTOR.name : null);
}
