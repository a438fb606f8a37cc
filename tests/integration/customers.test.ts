import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import { call, role, teamWorkspace, type Team } from '../factories/items';
import {
  defineCustomerData,
  eventRule,
  group,
  importBody,
  sizeOf,
  wsUrl,
  type MarketingDefinitions,
} from '../factories/customers';

let t: TestApp;
let manager: TestUser;
let team: Team;
let importer: TestUser;
let viewer: TestUser;
let outsider: TestUser;
let defs: MarketingDefinitions;

beforeAll(async () => {
  t = await createTestApp();
  manager = await verifiedUser(t, { name: 'Mia Manager' });
  team = await teamWorkspace(t, manager, {
    name: 'Customers',
    domains: ['marketing'],
    roles: {
      analyst: role('Analyst', { canEdit: ['customer-profile-attribute'], customerData: ['read', 'erase'] }),
      viewer: role('Viewer', { canEdit: ['audience'], customerData: ['read'] }),
    },
    people: { 'Ann Analyst': ['analyst'], 'Val Viewer': ['viewer'] },
  });
  importer = team.members['Ann Analyst'];
  viewer = team.members['Val Viewer'];
  outsider = await verifiedUser(t, { name: 'Otto Outsider' });
  defs = await defineCustomerData(t, manager, team.ws);
});
afterAll(() => t.close());

const profile = async (id: string) =>
  (await call(t, 'GET', wsUrl(team.ws, `profiles/${id}`), manager)).json();

describe('profile import', () => {
  it('imports CSV by declared types, skips bad rows with their line, and records a batch', async () => {
    const csv = [
      'id,age,city,tier,vip,tags,renews',
      'p1,31,Paris,gold,yes,news|sale,2026-07-01',
      'p2,forty,Rome,silver,no,,',
      'p3,22,"Oslo, NO",bronze,false,"[""vip""]",2026-01-05T10:00:00Z',
      'p4,50,Nice,gold,maybe,,',
      ',5,,,,,',
      'p5,19,Lyon,,,,not-a-date',
    ].join('\n');
    const res = await importBody(t, importer, team.ws, 'profiles', 'text/csv', csv);
    expect(res.statusCode).toBe(201);
    const { batch } = res.json();
    expect(batch).toMatchObject({
      kind: 'profiles-import',
      status: 'done with errors',
      total: 6,
      processed: 2,
      failed: 4,
      createdBy: importer.id,
      createdByName: 'Ann Analyst',
    });
    expect(batch.errors).toEqual([
      { line: 3, message: 'age: "forty" is not a number' },
      { line: 5, message: 'vip: "maybe" is not yes or no' },
      { line: 6, message: 'id is required' },
      { line: 7, message: 'renews: "not-a-date" is not a date' },
    ]);
    expect(batch.finishedAt).not.toBeNull();
    expect((await profile('p1')).profile.attributes).toEqual({
      age: 31,
      city: 'Paris',
      tier: 'gold',
      vip: true,
      tags: ['news', 'sale'],
      renews: '2026-07-01T00:00:00.000Z',
    });
    expect((await profile('p3')).profile.attributes).toMatchObject({
      city: 'Oslo, NO',
      tags: ['vip'],
      vip: false,
    });

    const read = await call(t, 'GET', wsUrl(team.ws, `batches/${batch.id}`), viewer);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(batch);
    const list = (await call(t, 'GET', wsUrl(team.ws, 'batches'), manager)).json();
    expect(list.batches[0].id).toBe(batch.id);
  });

  it('imports NDJSON; re-importing an id updates the given attributes and keeps the others', async () => {
    const ndjson = [
      JSON.stringify({ id: 'p1', attributes: { age: 32, city: 'Lille' } }),
      JSON.stringify({ id: 'p9', attributes: { unknown: 1 } }),
      '{not json',
      '',
      JSON.stringify({ id: 'p9', attributes: { tags: ['sale'], age: '44' } }),
    ].join('\n');
    const res = await importBody(t, importer, team.ws, 'profiles', 'application/x-ndjson', ndjson);
    expect(res.statusCode).toBe(201);
    expect(res.json().batch).toMatchObject({ status: 'done with errors', processed: 2, failed: 2 });
    expect(res.json().batch.errors).toEqual([
      { line: 2, message: 'unknown attribute "unknown"' },
      { line: 3, message: 'not valid JSON' },
    ]);
    expect((await profile('p1')).profile.attributes).toMatchObject({ age: 32, city: 'Lille', tier: 'gold' });
    expect((await profile('p9')).profile.attributes).toEqual({ tags: ['sale'], age: 44 });
  });

  it('stores text that COPY must escape as it was sent, and refuses text PostgreSQL cannot store', async () => {
    const nasty = [
      'tab\there',
      'line\nbreak\r\nand CR',
      'back\\slash \\N \\t \\\\',
      'quotes " \' and \\"',
      'unicode é 漢字 🎉 \u2028',
      '\\.',
    ];
    const ndjson = [
      ...nasty.map((city, i) =>
        JSON.stringify({ id: `nasty\t${i}\\`, attributes: { city, tags: [city, '|'] } }),
      ),
      JSON.stringify({ id: 'nul', attributes: { city: 'a\u0000b' } }),
      JSON.stringify({ id: 'surrogate', attributes: { tags: ['\ud800'] } }),
    ].join('\n');
    const res = await importBody(t, importer, team.ws, 'profiles', 'application/x-ndjson', ndjson);
    expect(res.json().batch).toMatchObject({
      status: 'done with errors',
      processed: nasty.length,
      failed: 2,
    });
    expect(res.json().batch.errors).toEqual([
      {
        line: nasty.length + 1,
        message: 'attributes.city: Text must not contain NUL characters or unpaired surrogates',
      },
      {
        line: nasty.length + 2,
        message: 'attributes.tags.0: Text must not contain NUL characters or unpaired surrogates',
      },
    ]);
    for (const [i, city] of nasty.entries()) {
      const { profile: stored } = await profile(encodeURIComponent(`nasty\t${i}\\`));
      expect(stored.attributes).toEqual({ city, tags: [city, '|'] });
    }

    const csv = [
      'profileId,event,at,amount,sku',
      ...nasty.map(
        (sku, i) =>
          `"nasty\t${i}\\",purchase,2026-06-0${i + 1}T00:00:00Z,${i},"${sku.replaceAll('"', '""')}"`,
      ),
    ].join('\n');
    const events = await importBody(t, importer, team.ws, 'customer-events', 'text/csv', csv);
    expect(events.json().batch).toMatchObject({ processed: nasty.length, failed: 0 });
    for (const [i, sku] of nasty.entries()) {
      const detail = await profile(encodeURIComponent(`nasty\t${i}\\`));
      expect(detail.events).toEqual([
        { event: 'purchase', at: `2026-06-0${i + 1}T00:00:00.000Z`, properties: { amount: i, sku } },
      ]);
    }
  });

  it('refuses a CSV row with a NUL byte and keeps bytes that are not UTF-8 as replacement characters', async () => {
    // CSV rows are walked for unsafe text only once the body holds a NUL byte: UTF-8 bytes, even a
    // surrogate's encoding, cannot decode to an unpaired surrogate.
    const body = Buffer.concat([
      Buffer.from('id,city\nclean1,Lyon\nraw,'),
      Buffer.from([0xed, 0xa0, 0x80]),
      Buffer.from('\nnul,a\u0000b\nclean2,Nice\n'),
    ]);
    const res = await importBody(t, importer, team.ws, 'profiles', 'text/csv', body);
    expect(res.json().batch).toMatchObject({ status: 'done with errors', processed: 3, failed: 1 });
    expect(res.json().batch.errors).toEqual([
      { line: 4, message: 'city: Text must not contain NUL characters or unpaired surrogates' },
    ]);
    expect((await profile('raw')).profile.attributes).toEqual({ city: '\ufffd\ufffd\ufffd' });
    expect((await profile('clean2')).profile.attributes).toEqual({ city: 'Nice' });
    expect((await call(t, 'GET', wsUrl(team.ws, 'profiles/nul'), manager)).statusCode).toBe(404);
  });

  it('reports CSV rows that cannot be read, and a column named __proto__, with their lines', async () => {
    const csv = ['id,city,__proto__', 'q1,"two\nlines",', 'q2,Rome', 'q3,Oslo,x'].join('\n');
    const res = await importBody(t, importer, team.ws, 'profiles', 'text/csv', csv);
    expect(res.json().batch).toMatchObject({ processed: 1, failed: 2 });
    expect(res.json().batch.errors).toEqual([
      { line: 4, message: expect.stringContaining('Invalid Record Length') },
      { line: 5, message: 'unknown attribute "__proto__"' },
    ]);
    expect((await profile('q1')).profile.attributes).toEqual({ city: 'two\nlines' });
  });

  it('fails a batch whose CSV record never ends instead of holding the body', async () => {
    const body = `id,city\nok1,Lyon\nbad,"${'x'.repeat(1_100_000)}`;
    const res = await importBody(t, importer, team.ws, 'profiles', 'text/csv', body);
    expect(res.statusCode).toBe(201);
    expect(res.json().batch).toMatchObject({ status: 'failed' });
    expect(res.json().batch.errors).toContainEqual({
      line: 0,
      message: 'Import stopped: line 3 starts a record longer than 1,000,000 characters',
    });
  });

  it('fails a batch whose CSV header has no id column; the id column may come anywhere', async () => {
    const res = await importBody(t, importer, team.ws, 'profiles', 'text/csv', 'age,name\n3,p1\n');
    expect(res.statusCode).toBe(201);
    expect(res.json().batch).toMatchObject({ status: 'failed', processed: 0 });
    expect(res.json().batch.errors[0].message).toContain(
      'The header row needs the column id, or a column mapped to it',
    );
    const later = await importBody(t, importer, team.ws, 'profiles', 'text/csv', 'age,id\n3,late-1\n');
    expect(later.json().batch).toMatchObject({ status: 'done', processed: 1 });
  });

  it('keeps the first 100 row errors and counts every failure, writing in chunks', async () => {
    const lines = ['id,age'];
    for (let i = 0; i < 4500; i++) lines.push(i % 30 === 0 ? `bulk${i},x` : `bulk${i},${i}`);
    const res = await importBody(t, importer, team.ws, 'profiles', 'text/csv', lines.join('\n'));
    const { batch } = res.json();
    expect(batch).toMatchObject({ status: 'done with errors', total: 4500, failed: 150, processed: 4350 });
    expect(batch.errors).toHaveLength(100);
    expect(batch.errors[0]).toEqual({ line: 2, message: 'age: "x" is not a number' });
    expect(batch.bytesRead).toBe(batch.bytesTotal);
  });

  it('takes a multipart file from the web app', async () => {
    const boundary = '----marquee';
    const payload =
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="people.csv"\r\n` +
      `Content-Type: text/csv\r\n\r\nid,city\nm1,Berlin\n\r\n--${boundary}--\r\n`;
    const res = await t.app.inject({
      method: 'POST',
      url: wsUrl(team.ws, 'profiles/import'),
      headers: { ...importer.auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().batch).toMatchObject({ fileName: 'people.csv', processed: 1, status: 'done' });
    expect((await profile('m1')).profile.attributes).toEqual({ city: 'Berlin' });
  });

  it('refuses other content types with 415', async () => {
    const res = await importBody(t, importer, team.ws, 'profiles', 'application/xml', '<a/>');
    expect(res.statusCode).toBe(415);
  });
});

describe('event import and live tracking', () => {
  it('imports CSV events typed by the event properties, reporting unknown events and bad dates', async () => {
    const csv = [
      'profileId,event,at,amount,sku,page',
      'p1,purchase,2026-06-01T10:00:00Z,20,A1,',
      'p1,purchase,2026-06-02T10:00:00Z,15.5,B2,',
      'p2,refund,2026-06-02T10:00:00Z,,,',
      'p2,visit,yesterday,,,home',
      'p3,visit,2026-06-03T10:00:00Z,,,home',
      'p3,visit,2026-06-03T11:00:00Z,3,,home',
    ].join('\n');
    const res = await importBody(t, importer, team.ws, 'customer-events', 'text/csv', csv);
    expect(res.statusCode).toBe(201);
    expect(res.json().batch).toMatchObject({ kind: 'customer-events-import', processed: 3, failed: 3 });
    expect(res.json().batch.errors).toEqual([
      { line: 4, message: 'unknown event "refund"' },
      { line: 5, message: 'at: "yesterday" is not a date' },
      { line: 7, message: 'unknown property "amount"' },
    ]);
    const detail = await profile('p1');
    expect(detail.events).toEqual([
      { event: 'purchase', at: '2026-06-02T10:00:00.000Z', properties: { amount: 15.5, sku: 'B2' } },
      { event: 'purchase', at: '2026-06-01T10:00:00.000Z', properties: { amount: 20, sku: 'A1' } },
    ]);
  });

  it('writes a large file in chunks side by side: every event and count lands, the first 100 errors in line order', async () => {
    const people = Array.from({ length: 10 }, (_, k) => `chunked${k}`);
    await importBody(t, importer, team.ws, 'profiles', 'text/csv', ['id', ...people].join('\n'));
    // 110,000 rows: three chunks, the first two written at once; every 300th names an unknown event.
    const lines = ['profileId,event,at,amount'];
    for (let i = 0; i < 110_000; i++) {
      const at = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
      lines.push(`chunked${i % 10},${i % 300 === 0 ? 'refund' : 'purchase'},${at},${i % 7}`);
    }
    const res = await importBody(t, importer, team.ws, 'customer-events', 'text/csv', lines.join('\n'));
    const { batch } = res.json();
    expect(batch).toMatchObject({
      status: 'done with errors',
      total: 110_000,
      processed: 109_633,
      failed: 367,
    });
    const errorLines = batch.errors.map((e: { line: number }) => e.line);
    expect(errorLines).toEqual(Array.from({ length: 100 }, (_, n) => 2 + 300 * n));
    expect(batch.errors[0]).toEqual({ line: 2, message: 'unknown event "refund"' });
    // All-time counts come from the per-profile rollup the chunks increment: chunked0 lost its 367
    // refunds, the other nine have all 11,000 purchases.
    const anytime = (condition: string, value: number) =>
      group('and', [
        eventRule(defs, 'purchase', {
          lookBackUnit: 'anytime',
          aggregatorCondition: condition,
          aggregatorValue: value,
        }),
      ]);
    expect((await sizeOf(t, manager, team.ws, anytime('==', 11_000))).json().size).toBe(9);
    expect((await sizeOf(t, manager, team.ws, anytime('==', 10_633))).json().size).toBe(1);
  });

  it('reads CSV events as a spreadsheet writes them: BOM, CRLF, quoted cells, a column given twice', async () => {
    // The import's own CSV reader replaced csv-parse: these are the cases a reader of its own can miss.
    await importBody(t, importer, team.ws, 'profiles', 'text/csv', 'id\ncrlf1\n');
    const csv = [
      '\ufeffprofileId,event,at,sku,properties,sku',
      'crlf1,purchase,2026-07-01T10:00:00Z,ignored,anything,"A,1"',
      'crlf1,purchase,2026-07-02T10:00:00Z,,,"line one',
      'line ""two"""',
      'crlf1,purchase,2026-07-03T10:00:00Z,,,B"roken',
      'crlf1,purchase,2026-07-04T10:00:00Z,,,plain',
    ].join('\r\n');
    const res = await importBody(t, importer, team.ws, 'customer-events', 'text/csv', csv);
    expect(res.json().batch).toMatchObject({ status: 'done with errors', processed: 3, failed: 1 });
    expect(res.json().batch.errors).toEqual([
      { line: 5, message: expect.stringContaining('Invalid Opening Quote') },
    ]);
    expect((await profile('crlf1')).events.map((e: { properties: unknown }) => e.properties)).toEqual([
      { sku: 'plain' },
      { sku: 'line one\r\nline "two"' },
      { sku: 'A,1' },
    ]);
  });

  it('imports NDJSON events', async () => {
    const ndjson = [
      {
        profileId: 'p5',
        event: 'purchase',
        at: '2026-06-05T00:00:00Z',
        properties: { amount: 5, gift: true },
      },
      { profileId: 'p5', event: 'purchase', at: '2026-06-06T00:00:00Z', properties: { amount: 'five' } },
    ]
      .map((e) => JSON.stringify(e))
      .join('\n');
    const res = await importBody(t, importer, team.ws, 'customer-events', 'application/x-ndjson', ndjson);
    expect(res.json().batch).toMatchObject({ processed: 1, failed: 1 });
    expect(res.json().batch.errors).toEqual([{ line: 2, message: 'amount: "five" is not a number' }]);
  });

  it('tracks up to 1,000 live events, all or none', async () => {
    const events = Array.from({ length: 1000 }, (_, i) => ({
      profileId: 'p3',
      event: 'visit',
      at: new Date(Date.UTC(2026, 5, 1, 0, i)).toISOString(),
      properties: { page: 'home' },
    }));
    const ok = await call(t, 'POST', wsUrl(team.ws, 'customer-events'), importer, { events });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ accepted: 1000 });
    const tooMany = await call(t, 'POST', wsUrl(team.ws, 'customer-events'), importer, {
      events: [...events, events[0]],
    });
    expect(tooMany.statusCode).toBe(400);
    const bad = await call(t, 'POST', wsUrl(team.ws, 'customer-events'), importer, {
      events: [events[0], { ...events[1], event: 'nope' }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe('events.1: unknown event "nope"');
    const latest = (await profile('p3')).events;
    expect(latest).toHaveLength(50);
    expect(latest[0].at).toBe('2026-06-03T10:00:00.000Z');
    expect(latest[1].at).toBe(events[999].at);

    // The latest events are read per event key (the index leads with it) and merged by time.
    const purchase = { profileId: 'p3', event: 'purchase', at: '2026-06-01T16:30:30.000Z', properties: {} };
    await call(t, 'POST', wsUrl(team.ws, 'customer-events'), importer, { events: [purchase] });
    const merged = (await profile('p3')).events;
    expect(merged).toHaveLength(50);
    expect(merged.map((e: { at: string }) => e.at)).toEqual(
      merged
        .map((e: { at: string }) => e.at)
        .sort()
        .reverse(),
    );
    expect(merged[10]).toEqual({ event: 'purchase', at: purchase.at, properties: {} });
    expect(merged[11].at).toBe(events[990].at);
  });
});

describe('reading profiles', () => {
  it('pages by id with a keyset cursor and searches by id prefix', async () => {
    const first = (await call(t, 'GET', wsUrl(team.ws, 'profiles?limit=2'), viewer)).json();
    expect(first.profiles.map((p: { id: string }) => p.id)).toEqual(['bulk1', 'bulk10']);
    const next = (
      await call(t, 'GET', wsUrl(team.ws, `profiles?limit=2&cursor=${first.nextCursor}`), viewer)
    ).json();
    expect(next.profiles.map((p: { id: string }) => p.id)).toEqual(['bulk100', 'bulk1000']);
    const search = (await call(t, 'GET', wsUrl(team.ws, 'profiles?search=p'), viewer)).json();
    expect(search.profiles.map((p: { id: string }) => p.id)).toEqual(['p1', 'p3', 'p9']);
    expect(search.nextCursor).toBeNull();
    expect((await call(t, 'GET', wsUrl(team.ws, 'profiles/nobody'), viewer)).statusCode).toBe(404);
  });
});

describe('rights', () => {
  it.each([
    ['POST', 'profiles/import'],
    ['POST', 'customer-events/import'],
  ])('%s %s: 401 signed out, 404 outside the workspace, 403 without the right', async (_method, path) => {
    const what = path.split('/')[0] as 'profiles' | 'customer-events';
    expect((await importBody(t, undefined, team.ws, what, 'text/csv', 'id\nx\n')).statusCode).toBe(401);
    expect((await importBody(t, outsider, team.ws, what, 'text/csv', 'id\nx\n')).statusCode).toBe(404);
    const denied = await importBody(t, viewer, team.ws, what, 'text/csv', 'id\nx\n');
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.message).toBe('You do not have permission to import customer data');
  });

  it('guards live events, profiles and batches the same way', async () => {
    const body = { events: [{ profileId: 'x', event: 'visit', at: '2026-01-01T00:00:00Z' }] };
    expect((await call(t, 'POST', wsUrl(team.ws, 'customer-events'), undefined, body)).statusCode).toBe(401);
    expect((await call(t, 'POST', wsUrl(team.ws, 'customer-events'), outsider, body)).statusCode).toBe(404);
    expect((await call(t, 'POST', wsUrl(team.ws, 'customer-events'), viewer, body)).statusCode).toBe(403);
    expect((await call(t, 'GET', wsUrl(team.ws, 'profiles'), undefined)).statusCode).toBe(401);
    expect((await call(t, 'GET', wsUrl(team.ws, 'profiles'), outsider)).statusCode).toBe(404);
    expect((await call(t, 'GET', wsUrl(team.ws, 'batches/abc'), outsider)).statusCode).toBe(404);
    expect((await call(t, 'GET', wsUrl(team.ws, 'batches/abc'), manager)).statusCode).toBe(404);
  });
});
