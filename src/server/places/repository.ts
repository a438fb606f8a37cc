import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { coveringCells, EARTH_RADIUS_KM, type Point } from '@shared/geo/geohash';
import type { Db, Tx } from '../db/client';
import { items, members, placeGeohashOf, placeOf, users } from '../db/schema';
import {
  approvalsColumn,
  containsPattern,
  copiesColumn,
  toWithWriter,
  type ItemWithWriter,
} from '../items/repository';

/** The first ring of a near search, km. */
const MIN_RING_KM = 1;

export interface NearCursor {
  distanceKm: number;
  id: string;
}

export interface NearQuery {
  workspaceId: string;
  schemas: string[];
  center: Point;
  radiusKm: number;
  writtenBy?: string;
  search?: string;
  cursor?: NearCursor;
  limit: number;
}

/**
 * The point of the item's address, read once per row. Coordinates within 1e-100 of zero count as zero:
 * PostgreSQL raises an underflow error where float arithmetic would round to zero. `offset 0` keeps the
 * planner from inlining it, which would evaluate the JSON path again in every use of the point.
 */
const point = sql`lateral (
  select case when abs(lat) < 1e-100 then 0 else lat end as lat, case when abs(lng) < 1e-100 then 0 else lng end as lng
  from (select (place ->> 'latitude')::float8 as lat, (place ->> 'longitude')::float8 as lng
        from (select ${placeOf(items.data)} as place offset 0) as address) as raw
) as near_point`;

const snap = (value: number) => (Math.abs(value) < 1e-100 ? 0 : value);

/** Haversine distance in km from the centre, as `distanceKm` in src/shared/geo computes it. */
const distanceFrom = (center: Point) => {
  const lat = sql`${snap(center.latitude)}::float8`;
  const lng = sql`${snap(center.longitude)}::float8`;
  return sql<number>`(2 * ${EARTH_RADIUS_KM}::float8 * asin(least(1, sqrt(
    power(sin(radians(near_point.lat - ${lat}) / 2), 2)
    + cos(radians(${lat})) * cos(radians(near_point.lat)) * power(sin(radians(near_point.lng - ${lng}) / 2), 2)))))`;
};

/**
 * Items whose address lies within the radius, nearest first (then by id): the geohash index narrows
 * them to the covering cells, one range scan per cell, and the exact distance decides. Answers up to
 * limit + 1 rows so the caller knows whether a next page exists.
 */
export async function listNearItems(
  db: Db,
  query: NearQuery,
): Promise<(ItemWithWriter & { distanceKm: number })[]> {
  // A page needs a few dozen rows: a parallel worker or JIT compilation (which PostgreSQL plans for
  // the large row estimates of the cells) costs far more than the scan itself.
  const rows = await db.transaction(async (tx) => {
    await tx.execute(sql`set local max_parallel_workers_per_gather = 0`);
    await tx.execute(sql`set local jit = off`);
    // Widening rings: a page found within a smaller radius is the page of the whole radius (everything
    // outside it is farther away), and in a dense city it reads a few hundred rows, not every one in range.
    const start = Math.max(MIN_RING_KM, (query.cursor?.distanceKm ?? 0) * 1.5);
    for (
      let radiusKm = Math.min(query.radiusKm, start);
      ;
      radiusKm = Math.min(query.radiusKm, radiusKm * 4)
    ) {
      const found = await nearItemsQuery(tx, { ...query, radiusKm });
      if (found.length > query.limit || radiusKm >= query.radiusKm) return found;
    }
  });
  return rows.map((r) => ({ ...toWithWriter(r), distanceKm: Number(r.distanceKm) }));
}

/** The statement of listNearItems, unexecuted (the benchmark prints its plan). */
export function nearItemsQuery(db: Db | Tx, query: NearQuery) {
  const geohash = sql`(${placeGeohashOf(items.data)} collate "C")`;
  const distance = distanceFrom(query.center);
  // Geohash cells covering the circle, each an index range scan; null when it holds the whole sphere.
  const cells = coveringCells(query.center, query.radiusKm);
  const conditions: (SQL | undefined)[] = [
    eq(items.workspaceId, query.workspaceId),
    query.schemas.length === 1 ? eq(items.schema, query.schemas[0]) : inArray(items.schema, query.schemas),
    sql`${placeGeohashOf(items.data)} is not null`,
    sql`${distance} <= ${query.radiusKm}::float8`,
  ];
  if (cells) {
    // Every 12-character geohash in a cell lies between the cell and the cell followed by '~' (after
    // every geohash character in the C collation).
    const ranges = cells.map((cell) => sql`(${geohash} >= ${cell} and ${geohash} < ${`${cell}~`})`);
    conditions.push(sql`(${sql.join(ranges, sql` or `)})`);
  }
  if (query.writtenBy) conditions.push(eq(items.lastWrittenBy, query.writtenBy));
  if (query.search) {
    const pattern = containsPattern(query.search);
    conditions.push(
      sql`(${items.data}->>'name' ilike ${pattern} or ${items.data}->>'title' ilike ${pattern})`,
    );
  }
  if (query.cursor) {
    conditions.push(
      sql`(${distance}, ${items.id}) > (${query.cursor.distanceKm}::float8, ${query.cursor.id}::text)`,
    );
  }
  return db
    .select({
      item: items,
      memberName: members.displayName,
      userName: users.name,
      copies: copiesColumn,
      approvals: approvalsColumn,
      distanceKm: distance,
    })
    .from(items)
    .innerJoin(point, sql`true`)
    .leftJoin(
      members,
      and(eq(members.workspaceId, items.workspaceId), eq(members.userId, items.lastWrittenBy)),
    )
    .leftJoin(users, eq(users.id, items.lastWrittenBy))
    .where(and(...conditions))
    .orderBy(asc(distance), asc(items.id))
    .limit(query.limit + 1);
}
