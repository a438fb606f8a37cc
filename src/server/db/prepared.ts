import type { Db } from './client';

/**
 * A query built and prepared once per database (with `sql.placeholder` for its values), for the hot
 * paths: no query building per request, and PostgreSQL parses and plans it once per connection.
 */
export function preparedPerDb<Q>(build: (db: Db) => Q): (db: Db) => Q {
  const byDb = new WeakMap<Db, Q>();
  return (db) => {
    let query = byDb.get(db);
    if (!query) byDb.set(db, (query = build(db)));
    return query;
  };
}
