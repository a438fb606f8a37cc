import { sql } from 'drizzle-orm';

/** A text[] of the values, one parameter each (drizzle would spread a bare array into a record). */
export const textArray = (values: readonly string[]) =>
  values.length
    ? sql`array[${sql.join(
        values.map((value) => sql`${value}::text`),
        sql`, `,
      )}]`
    : sql`'{}'::text[]`;
