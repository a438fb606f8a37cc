import fc from 'fast-check';
import { distanceKm, type Point } from '@shared/geo/geohash';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import { call, createItem, itemsUrl, role, saveItem, teamWorkspace, type Team } from '../factories/items';
import { createWorkspace } from '../factories/workspaces';

let t: TestApp;
let manager: TestUser;
let outsider: TestUser;
let team: Team;

beforeAll(async () => {
  t = await createTestApp();
  manager = await verifiedUser(t, { name: 'Mia Manager' });
  outsider = await verifiedUser(t, { name: 'Otto Outsider' });
  await createWorkspace(t.app, outsider, 'Other Places');
  team = await teamWorkspace(t, manager, {
    name: 'Places',
    domains: ['marketing', 'blogging'],
    roles: { viewer: role('Viewer', {}) },
    people: { 'Val Viewer': ['viewer'] },
  });
});
afterAll(() => t.close());

const eventData = (name: string, location: object | null) => ({
  name,
  startTime: '2026-06-01T10:00:00.000Z',
  endTime: '2026-06-01T12:00:00.000Z',
  location,
});

const createEvent = (name: string, location: object | null) =>
  createItem(t, manager, team.ws, 'event', eventData(name, location));

describe('geohashes on save', () => {
  it('computes geohash p_1 … p_12 and geohashes from the point (published value), ignoring a sent one', async () => {
    const item = await createEvent('Aalborg', {
      city: 'Aalborg',
      latitude: 57.64911,
      longitude: 10.40744,
      geohash: { p_1: 'z', p_2: 'zz' },
      geohashes: ['z'],
    });
    const location = item.data.location as { geohash: Record<string, string>; geohashes: string[] };
    // Wikipedia "Geohash": 57.64911, 10.40744 → u4pruydqqvj.
    expect(location.geohash.p_11).toBe('u4pruydqqvj');
    expect(Object.keys(location.geohash)).toEqual(Array.from({ length: 12 }, (_, i) => `p_${i + 1}`));
    expect(location.geohash.p_1).toBe('u');
    expect(location.geohashes).toHaveLength(12);
    expect(location.geohashes[4]).toBe('u4pru');
    expect(location.geohashes[11]).toBe(location.geohash.p_12);

    // Moving the point moves the geohash; 42.6, -5.6 → ezs42 (Wikipedia).
    const saved = await saveItem(
      t,
      manager,
      team.ws,
      'event',
      item.id,
      eventData('Moved', { latitude: 42.6, longitude: -5.6 }),
      1,
    );
    expect((saved.data.location as { geohash: Record<string, string> }).geohash.p_5).toBe('ezs42');
  });

  it('drops a geohash sent without a point', async () => {
    const item = await createEvent('No point', {
      rawAddress: 'Somewhere',
      geohash: { p_1: 'u' },
      geohashes: ['u'],
    });
    expect(item.data.location).toEqual({ rawAddress: 'Somewhere' });
  });

  it('refuses latitude or longitude out of range, naming the field, and writes nothing', async () => {
    const lat = await call(t, 'POST', itemsUrl(team.ws, 'event'), manager, {
      data: eventData('Bad', { latitude: 90.5, longitude: 0 }),
    });
    expect(lat.statusCode).toBe(400);
    expect(lat.json().error.message).toBe('data.location.latitude: Latitude must be between -90 and 90');
    const lng = await call(t, 'POST', itemsUrl(team.ws, 'event'), manager, {
      data: eventData('Bad', { latitude: 0, longitude: -180.01 }),
    });
    expect(lng.statusCode).toBe(400);
    expect(lng.json().error.message).toBe('data.location.longitude: Longitude must be between -180 and 180');
    const list = await call(t, 'GET', `${itemsUrl(team.ws, 'event')}?q=Bad`, manager);
    expect(list.json().items).toHaveLength(0);
  });
});

describe('GET /fun/geohash/neighbours', () => {
  const neighbours = (query: string, user: TestUser | null = manager) =>
    call(t, 'GET', `/fun/geohash/neighbours?${query}`, user ?? undefined);

  it('answers the neighbouring cell (published example gbsuv)', async () => {
    const expected = { n: 'gbsvj', s: 'gbsut', e: 'gbsuy', w: 'gbsuu' };
    for (const [direction, neighbour] of Object.entries(expected)) {
      const res = await neighbours(`hash=gbsuv&direction=${direction}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ hash: 'gbsuv', direction, neighbour });
    }
    expect((await neighbours('hash=zzz&direction=e')).json().neighbour).toBe('bpb');
    expect((await neighbours('hash=zzz&direction=n')).json().neighbour).toBeNull();
  });

  it("answers 'Invalid geohash' and 'Invalid direction'", async () => {
    for (const hash of ['', 'abc', 'u4pruydqqvj8x', 'u4%20']) {
      const res = await neighbours(`hash=${hash}&direction=n`);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe('Invalid geohash');
    }
    for (const direction of ['', 'up', 'ne']) {
      const res = await neighbours(`hash=u4pru&direction=${direction}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe('Invalid direction');
    }
  });

  it('needs a signed-in caller', async () => {
    expect((await neighbours('hash=u4pru&direction=n', null)).statusCode).toBe(401);
  });
});

interface Placed {
  id: string;
  point: Point;
}

const nearUrl = (center: Point, radiusKm: number, extra = '', limit = 100) =>
  `${itemsUrl(team.ws, 'event')}?near=${center.latitude},${center.longitude}&radiusKm=${radiusKm}&limit=${limit}${extra}`;

/** Every page of a near search, in order, with each item's distance. */
async function nearIds(center: Point, radiusKm: number, user = manager, limit = 100) {
  const ids: string[] = [];
  let cursor = '';
  for (let page = 0; page < 200; page++) {
    const res = await call(t, 'GET', nearUrl(center, radiusKm, cursor && `&cursor=${cursor}`, limit), user);
    if (res.statusCode !== 200) throw new Error(`near failed: ${res.body}`);
    const body = res.json() as { items: { id: string }[]; nextCursor: string | null };
    ids.push(...body.items.map((item) => item.id));
    if (!body.nextCursor) return ids;
    cursor = body.nextCursor;
  }
  throw new Error('too many pages');
}

describe('near search', () => {
  const placed: Placed[] = [];
  const expectNearestFirst = (center: Point, ids: string[]) => {
    const distances = ids.map((id) => distanceKm(center, placed.find((p) => p.id === id)!.point));
    distances.forEach((d, i) => i > 0 && expect(d).toBeGreaterThanOrEqual(distances[i - 1] - 1e-9));
  };
  // Clusters at the places where naive geohash searches fail: both poles, both sides of the
  // antimeridian, the equator and prime meridian (where every cell edge meets), and a city.
  const hotSpots: Point[] = [
    { latitude: 90, longitude: 0 },
    { latitude: 89.95, longitude: 120 },
    { latitude: -89.9, longitude: -45 },
    { latitude: 0, longitude: 180 },
    { latitude: 10, longitude: -179.99 },
    { latitude: 0, longitude: 0 },
    { latitude: 45, longitude: 22.5 },
    { latitude: 48.8566, longitude: 2.3522 },
  ];
  const offsets = fc.record({
    spot: fc.integer({ min: 0, max: hotSpots.length - 1 }),
    dLat: fc.double({ min: -0.3, max: 0.3, noNaN: true }),
    dLng: fc.double({ min: -0.3, max: 0.3, noNaN: true }),
  });
  const pointNear = ({ spot, dLat, dLng }: { spot: number; dLat: number; dLng: number }): Point => {
    const base = hotSpots[spot];
    const latitude = Math.max(-90, Math.min(90, base.latitude + dLat));
    let longitude = base.longitude + dLng;
    if (longitude > 180) longitude -= 360;
    if (longitude < -180) longitude += 360;
    return { latitude, longitude };
  };

  beforeAll(async () => {
    // Points on cell edges exactly: multiples of 45° / 22.5° / 5.625° and the corners of the world.
    const edges: Point[] = [
      { latitude: 0, longitude: 0 },
      { latitude: 45, longitude: 22.5 },
      { latitude: 45, longitude: 22.5 + 5.625 / 64 },
      { latitude: -90, longitude: -180 },
      { latitude: 90, longitude: 180 },
      { latitude: 0, longitude: -180 },
    ];
    const random = fc.sample(offsets, { numRuns: 114, seed: 12 }).map(pointNear);
    let n = 0;
    for (const point of [...hotSpots, ...edges, ...random]) {
      const item = await createEvent(`Place ${n++}`, {
        latitude: point.latitude,
        longitude: point.longitude,
      });
      placed.push({ id: item.id, point });
    }
    await createEvent('Nowhere', { rawAddress: 'no point' });
    await createEvent('No address', null);
  });

  it('lists items within the radius, nearest first, crossing the antimeridian', async () => {
    const center = { latitude: 0, longitude: 179.95 };
    const ids = await nearIds(center, 50);
    const expected = placed.filter((p) => distanceKm(center, p.point) <= 50);
    expect([...ids].sort()).toEqual(expected.map((p) => p.id).sort());
    expectNearestFirst(center, ids);
    expect(expected.some((p) => p.point.longitude < 0)).toBe(true);
    expect(expected.some((p) => p.point.longitude > 0)).toBe(true);
  });

  it('finds everything around a pole', async () => {
    const center = { latitude: 89.99, longitude: -100 };
    const ids = await nearIds(center, 40);
    const expected = placed.filter((p) => distanceKm(center, p.point) <= 40).map((p) => p.id);
    expect(ids.sort()).toEqual(expected.sort());
    expect(expected.length).toBeGreaterThan(5);
  });

  it('agrees with a brute-force distance filter (property)', async () => {
    const query = fc.record({
      at: offsets,
      radiusKm: fc.oneof(fc.double({ min: 0.5, max: 60, noNaN: true }), fc.constantFrom(1000, 5000, 20_015)),
      // Small pages exercise the widening rings and the cursor; large ones the whole radius at once.
      limit: fc.constantFrom(3, 100),
    });
    await fc.assert(
      fc.asyncProperty(query, async ({ at, radiusKm, limit }) => {
        const center = pointNear(at);
        // Only the items placed here (the first tests saved a few elsewhere).
        const ids = (await nearIds(center, radiusKm, manager, limit)).filter((id) =>
          placed.some((p) => p.id === id),
        );
        expectNearestFirst(center, ids);
        // The same set as brute force, but for points on the rim within rounding.
        const rim = (p: Placed) => Math.abs(distanceKm(center, p.point) - radiusKm) < 1e-6;
        const expected = placed
          .filter((p) => distanceKm(center, p.point) <= radiusKm && !rim(p))
          .map((p) => p.id);
        const got = ids.filter((id) => !rim(placed.find((p) => p.id === id)!));
        expect(got.sort()).toEqual(expected.sort());
      }),
      { numRuns: 40, seed: 7 },
    );
  });

  it('pages with a cursor and combines with the text search', async () => {
    const center = hotSpots[7];
    const all = await nearIds(center, 100);
    expect(all.length).toBeGreaterThan(4);
    const first = (
      await call(t, 'GET', `${itemsUrl(team.ws, 'event')}?near=48.8566,2.3522&radiusKm=100&limit=2`, manager)
    ).json();
    expect(first.items.map((i: { id: string }) => i.id)).toEqual(all.slice(0, 2));
    const second = (
      await call(
        t,
        'GET',
        `${itemsUrl(team.ws, 'event')}?near=48.8566,2.3522&radiusKm=100&limit=2&cursor=${first.nextCursor}`,
        manager,
      )
    ).json();
    expect(second.items.map((i: { id: string }) => i.id)).toEqual(all.slice(2, 4));
    const named = placed.find((p) => p.id === all[0])!;
    const index = placed.indexOf(named);
    const searched = (
      await call(
        t,
        'GET',
        `${itemsUrl(team.ws, 'event')}?near=48.8566,2.3522&radiusKm=100&q=Place%20${index}`,
        manager,
      )
    ).json();
    expect(searched.items.map((i: { id: string }) => i.id)).toContain(named.id);
  });

  it('is open to every member, 404 to other workspaces, 401 without a session', async () => {
    const viewer = team.members['Val Viewer'];
    expect((await nearIds(hotSpots[7], 100, viewer)).length).toBeGreaterThan(4);
    expect((await call(t, 'GET', nearUrl(hotSpots[7], 100), outsider)).statusCode).toBe(404);
    expect((await call(t, 'GET', nearUrl(hotSpots[7], 100))).statusCode).toBe(401);
  });

  it('refuses bad points, radii, views and schemas without an address', async () => {
    const bad = async (query: string, message: string, schema = 'event') => {
      const res = await call(t, 'GET', `${itemsUrl(team.ws, schema)}?${query}`, manager);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toContain(message);
    };
    await bad('near=abc', 'near must be {latitude},{longitude}');
    await bad('near=91,0', 'near: latitude must be between -90 and 90');
    await bad('near=0,181', 'near: longitude must be between -180 and 180');
    await bad('near=0,0&radiusKm=0', 'radiusKm must be a number above 0');
    await bad('near=0,0&radiusKm=x', 'radiusKm must be a number above 0');
    await bad('near=0,0&view=need-my-approval', 'Near search lists the views all and last-updated-by-me');
    await bad('near=0,0', 'Near search needs a schema with an address field', 'blog-post');
  });
});
