import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import { call } from '../factories/items';
import { createWorkspace } from '../factories/workspaces';
import { loadConfig } from '@server/config';
import {
  FAKE_PLACES,
  startFakeGooglePlaces,
  startFakeNominatim,
  type FakeServer,
} from '../fixtures/fake-places';

const placesOf = (overrides: Record<string, string>) =>
  loadConfig({ DATA_DIR: '/nonexistent', MARQUEE_SECRET: 'x', ...overrides }).places;

interface Setup {
  t: TestApp;
  user: TestUser;
  outsider: TestUser;
  ws: string;
}

async function setUp(places: ReturnType<typeof placesOf>): Promise<Setup> {
  const t = await createTestApp({ places });
  const user = await verifiedUser(t);
  const outsider = await verifiedUser(t);
  const ws = (await createWorkspace(t.app, user, 'Lookup')).id;
  await createWorkspace(t.app, outsider, 'Elsewhere');
  return { t, user, outsider, ws };
}

const lookup = (s: Setup, path: string, user: TestUser | null = s.user, ws = s.ws) =>
  call(
    s.t,
    'GET',
    `/fun/places/${path}${path.includes('?') ? '&' : '?'}__marquee_workspace=${ws}`,
    user ?? undefined,
  );

describe('Google Places', () => {
  let google: FakeServer;
  let s: Setup;
  beforeAll(async () => {
    google = await startFakeGooglePlaces('test-key');
    s = await setUp(
      placesOf({
        GOOGLE_PLACES_API_KEY: 'test-key',
        GOOGLE_PLACES_URL: google.url,
        GEOCODER_URL: 'http://127.0.0.1:9',
      }),
    );
  });
  afterAll(async () => {
    await s.t.close();
    await google.close();
  });

  it('says which lookup answers', async () => {
    expect((await lookup(s, 'config')).json()).toEqual({ provider: 'google', tileUrl: null });
  });

  it('suggests places biased by the browser position, keeping the key on the server', async () => {
    const res = await lookup(s, 'autocomplete?q=sydney&lat=-33.9&lng=151.2');
    expect(res.statusCode).toBe(200);
    expect(res.json().suggestions[0]).toEqual({
      placeId: 'ChIJ3S-JXmauEmsRUcIaWtf4MzE',
      description: expect.stringContaining('Sydney Opera House'),
      mainText: 'Sydney Opera House',
      secondaryText: expect.stringContaining('Macquarie Street'),
    });
    expect(res.body).not.toContain('test-key');
    const request = google.seen.at(-1)!;
    expect(request).toMatchObject({ method: 'POST', url: '/v1/places:autocomplete', apiKey: 'test-key' });
    expect(request.body).toEqual({
      input: 'sydney',
      locationBias: { circle: { center: { latitude: -33.9, longitude: 151.2 }, radius: 50000 } },
    });
  });

  it("answers a place as the spec's address value with its geohash", async () => {
    const res = await lookup(s, 'ChIJLU7jZClu5kcR4PcOOO6p3I0');
    expect(res.statusCode).toBe(200);
    const address = res.json();
    expect(address).toMatchObject({
      streetNumber: '5',
      streetAddress: 'Avenue Anatole France',
      neighborhood: 'Gros-Caillou',
      city: 'Paris',
      county: 'Paris',
      state: 'IDF',
      postal_code: '75007',
      country: 'FR',
      latitude: 48.8582602,
      longitude: 2.2944991,
      google_place: { placeId: 'ChIJLU7jZClu5kcR4PcOOO6p3I0', name: 'Eiffel Tower' },
    });
    expect(address.rawAddress).toContain('Eiffel Tower');
    expect(address.geohash.p_7).toBe('u09tunq');
    expect(address.geohashes).toHaveLength(12);
    expect(google.seen.at(-1)!.url).toBe('/v1/places/ChIJLU7jZClu5kcR4PcOOO6p3I0');
  });

  it('reuses answers for a while', async () => {
    const before = google.seen.length;
    await lookup(s, 'autocomplete?q=new%20york');
    await lookup(s, 'autocomplete?q=New%20York');
    await lookup(s, 'ChIJOwg_06VPwokRYv534QaPC8g');
    await lookup(s, 'ChIJOwg_06VPwokRYv534QaPC8g');
    expect(google.seen.length - before).toBe(2);
  });

  it("answers 404 for an unknown place and 502 naming the provider's failure", async () => {
    const missing = await lookup(s, 'ChIJunknown');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.message).toBe('Place not found');
    google.failWith = {
      status: 500,
      body: { error: { code: 500, message: 'Backend error', status: 'INTERNAL' } },
    };
    try {
      const failed = await lookup(s, 'autocomplete?q=fails');
      expect(failed.statusCode).toBe(502);
      expect(failed.json().error.message).toBe(
        'The address lookup service failed: Google Places answered 500: Backend error',
      );
    } finally {
      google.failWith = null;
    }
  });

  it('refuses strangers: 401 without a session, 404 for another workspace, 400 for a bad query', async () => {
    expect((await lookup(s, 'autocomplete?q=paris', null)).statusCode).toBe(401);
    expect((await lookup(s, 'autocomplete?q=paris', s.outsider)).statusCode).toBe(404);
    expect((await lookup(s, 'ChIJLU7jZClu5kcR4PcOOO6p3I0', s.outsider)).statusCode).toBe(404);
    const bad = await lookup(s, 'autocomplete?q=paris&lat=95&lng=0');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe('lat: lat must be between -90 and 90');
    expect((await lookup(s, 'autocomplete?q=')).json().error.message).toBe('q: q is required');
  });
});

describe('Nominatim geocoder', () => {
  let geocoder: FakeServer;
  let s: Setup;
  beforeAll(async () => {
    geocoder = await startFakeNominatim();
    s = await setUp(
      placesOf({
        GEOCODER_URL: geocoder.url,
        MAP_TILE_URL: 'https://{s}.tiles.example/{z}/{x}/{y}.png',
        PLACES_RATE_LIMIT: '4',
      }),
    );
  });
  afterAll(async () => {
    await s.t.close();
    await geocoder.close();
  });

  it('says which lookup answers and where tiles come from', async () => {
    expect((await lookup(s, 'config')).json()).toEqual({
      provider: 'nominatim',
      tileUrl: 'https://{s}.tiles.example/{z}/{x}/{y}.png',
    });
  });

  it('suggests places with a bias box, then answers the picked one without a second call', async () => {
    const res = await lookup(s, 'autocomplete?q=opera&lat=-33.86&lng=151.21');
    expect(res.statusCode).toBe(200);
    expect(res.json().suggestions).toEqual([
      {
        placeId: 'N2709306673',
        description: expect.stringContaining('Sydney Opera House, 2 Macquarie Street'),
        mainText: 'Sydney Opera House',
        secondaryText: expect.stringContaining('Macquarie Street'),
      },
    ]);
    const search = new URL(geocoder.seen.at(-1)!.url, 'http://x');
    expect(search.pathname).toBe('/search');
    expect(search.searchParams.get('q')).toBe('opera');
    expect(search.searchParams.get('viewbox')).toBe('150.71,-33.36,151.71,-34.36');
    expect(geocoder.seen.at(-1)!.userAgent).toMatch(/^Marquee/);
    const calls = geocoder.seen.length;
    const place = await lookup(s, 'N2709306673');
    expect(place.json()).toMatchObject({
      streetNumber: '2',
      streetAddress: 'Macquarie Street',
      city: 'Sydney',
      state: 'New South Wales',
      postal_code: '2000',
      country: 'AU',
      latitude: -33.8567844,
      longitude: 151.2152967,
    });
    expect(place.json().geohash.p_12).toHaveLength(12);
    expect(geocoder.seen.length).toBe(calls);
  });

  it('looks a place up by its OSM id when it was not suggested here', async () => {
    const res = await lookup(s, 'W5013364');
    expect(res.json()).toMatchObject({ city: 'Paris', latitude: FAKE_PLACES[0].lat });
    expect(geocoder.seen.at(-1)!.url).toContain('/lookup?');
    expect(geocoder.seen.at(-1)!.url).toContain('osm_ids=W5013364');
    expect((await lookup(s, 'X123')).statusCode).toBe(404);
  });

  it('limits lookups per workspace per minute', async () => {
    const answers = [];
    for (const q of ['a1', 'a2', 'a3', 'a4', 'a5'])
      answers.push((await lookup(s, `autocomplete?q=${q}`)).statusCode);
    expect(answers.at(-1)).toBe(429);
    const limited = await lookup(s, 'autocomplete?q=a6');
    expect(limited.json().error.message).toBe(
      'Too many address lookups in this workspace; try again in a minute',
    );
    // Answers already cached still come back.
    expect((await lookup(s, 'autocomplete?q=opera&lat=-33.86&lng=151.21')).statusCode).toBe(200);
  });

  it('allows the tile server in the content security policy', async () => {
    const res = await s.t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.headers['content-security-policy']).toContain('img-src');
    expect(res.headers['content-security-policy']).toContain('https://*.tiles.example');
  });
});

describe('without a lookup', () => {
  let s: Setup;
  beforeAll(async () => {
    s = await setUp(placesOf({}));
  });
  afterAll(() => s.t.close());

  it('says lookup is not configured', async () => {
    expect((await lookup(s, 'config')).json()).toEqual({ provider: null, tileUrl: null });
    const res = await lookup(s, 'autocomplete?q=paris');
    expect(res.statusCode).toBe(503);
    expect(res.json().error).toEqual({
      code: 'not_configured',
      message: 'Address lookup is not configured: type the address and pick the point on the map',
      details: { setting: 'GOOGLE_PLACES_API_KEY', alternatives: ['GEOCODER_URL'] },
    });
  });
});
