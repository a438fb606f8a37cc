import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';

/**
 * Random splits that draw the same every time: a unit (a journey run, a campaign's profile) draws a
 * number in [0, 1) from the SHA-256 of the unit and the split's salt, and takes the share its draw
 * falls in. A retried step, another process or a SQL statement over a million rows draws alike.
 */

/** The unit's draw: the first 32 bits of SHA-256(`unit` \n `salt`), as a fraction of 2^32. */
export function splitDraw(unit: string, salt: string) {
  return createHash('sha256').update(`${unit}\n${salt}`).digest().readUInt32BE(0) / 2 ** 32;
}

/** `splitDraw` in SQL, of a text expression, for splitting rows in the statement that selects them. */
export function splitDrawSql(unit: SQL, salt: string) {
  return sql`(('x' || left(encode(sha256(convert_to(${unit} || E'\\n' || ${salt}::text, 'UTF8')), 'hex'), 8))::bit(32)::bigint::float8 / 4294967296.0)`;
}

/** The share a draw falls in: the index into `percents` (in order, from 0), or -1 past all of them. */
export function shareOf(percents: readonly number[], draw: number) {
  let edge = 0;
  for (const [index, percent] of percents.entries()) {
    edge += percent / 100;
    if (draw < edge) return index;
  }
  return -1;
}

/** `shareOf` in SQL: the share (from 0) `draw` falls in, or -1. The edges are summed as `shareOf` sums them. */
export function shareOfSql(percents: readonly number[], draw: SQL) {
  const edges: number[] = [];
  let edge = 0;
  for (const percent of percents) edges.push((edge += percent / 100));
  const cases = edges.map((at, index) => sql`when ${draw} < ${at}::float8 then ${index}::int`);
  return sql`(case ${sql.join(cases, sql` `)} else -1 end)`;
}
