import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import { call, itemsUrl, role, teamWorkspace, type Team } from '../factories/items';
import { defineCustomerData, wsUrl } from '../factories/customers';

let t: TestApp;
let manager: TestUser;
let team: Team;
let importer: TestUser;
let viewer: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  manager = await verifiedUser(t, { name: 'Mia Manager' });
  team = await teamWorkspace(t, manager, {
    name: 'Mapped imports',
    domains: ['marketing'],
    roles: {
      analyst: role('Analyst', { canEdit: ['customer-profile-attribute'], customerData: ['read', 'erase'] }),
      viewer: role('Viewer', { canEdit: ['audience'], customerData: ['read'] }),
    },
    people: { 'Ann Analyst': ['analyst'], 'Val Viewer': ['viewer'] },
  });
  importer = team.members['Ann Analyst'];
  viewer = team.members['Val Viewer'];
  await defineCustomerData(t, manager, team.ws);
});
afterAll(() => t.close());

const post = (user: TestUser, path: string, contentType: string, body: string) =>
  t.app.inject({
    method: 'POST',
    url: wsUrl(team.ws, path),
    headers: { ...user.auth, 'content-type': contentType },
    payload: body,
  });
const withMapping = (path: string, mapping: unknown) =>
  `${path}?mapping=${encodeURIComponent(JSON.stringify(mapping))}`;

const CRM = [
  'id,firstName,last_name,Email Address,Age,vip,signup_date,interests,city',
  'c1,Ada,Lovelace,ada@example.com,36,yes,2024-03-01,math|poetry,London',
  'c2,Alan,Turing,alan@example.com,41,no,2024-04-12,math|chess,Wilmslow',
  'c3,Grace,Hopper,grace@example.com,85,true,2023-12-09,navy,',
].join('\n');

const attributeItems = async () =>
  (await call(t, 'GET', itemsUrl(team.ws, 'customer-profile-attribute'), manager)).json().items as {
    id: string;
    data: Record<string, unknown>;
    version: number;
  }[];

describe('import preview', () => {
  it('matches columns by key or label, proposes new attributes with inferred types, and writes nothing', async () => {
    const res = await post(importer, 'profiles/import/preview', 'text/csv', CRM);
    expect(res.statusCode).toBe(200);
    const preview = res.json();
    expect(preview.rowsRead).toBe(3);
    const byColumn = Object.fromEntries(preview.columns.map((c: { column: string }) => [c.column, c]));
    expect(byColumn.id).toMatchObject({ own: true, match: 'own' });
    // Existing attributes: `age` by its key (case aside), `city` by key.
    expect(byColumn.Age).toMatchObject({ match: 'key', key: 'age', type: 'number' });
    expect(byColumn.city).toMatchObject({ match: 'key', key: 'city', type: 'string', filled: 2 });
    expect(byColumn.vip).toMatchObject({ match: 'key', key: 'vip', type: 'boolean' });
    // Well-known fields get the key they have everywhere, in the workspace's style (kebab-case here).
    expect(byColumn.firstName).toMatchObject({
      match: 'new',
      key: 'first-name',
      label: 'First name',
      keyChange: 'Becomes "first-name": the first name of each profile',
      type: 'string',
    });
    expect(byColumn.last_name).toMatchObject({ match: 'new', key: 'last-name', label: 'Last name' });
    // Other new ones get a key in the workspace's style too.
    expect(byColumn.signup_date).toMatchObject({
      match: 'new',
      key: 'signup-date',
      keyChange: 'Becomes "signup-date": new keys are kebab-case, like the workspace\'s',
      type: 'date',
      samples: ['2024-03-01', '2024-04-12', '2023-12-09'],
    });
    expect(byColumn.interests).toMatchObject({
      match: 'new',
      type: 'array',
      options: ['math', 'poetry', 'chess', 'navy'],
    });
    // The address goes to the attribute campaigns read it from, and says so before the import.
    expect(byColumn['Email Address']).toMatchObject({
      match: 'new',
      key: 'email',
      label: 'Email',
      keyChange: 'Becomes "email": the email of each profile',
    });
    expect(preview.rows[0]).toEqual(CRM.split('\n')[1].split(','));
    expect(preview.mapping.columns).toEqual({
      firstName: { key: 'first-name', type: 'string', label: 'First name' },
      last_name: { key: 'last-name', type: 'string', label: 'Last name' },
      'Email Address': { key: 'email', type: 'string', label: 'Email' },
      Age: { key: 'age' },
      signup_date: { key: 'signup-date', type: 'date', label: 'signup_date' },
      interests: {
        key: 'interests',
        type: 'array',
        label: 'interests',
        options: ['math', 'poetry', 'chess', 'navy'],
      },
    });
    expect((await attributeItems()).map((i) => i.data.key)).not.toContain('first-name');
    const batches = (await call(t, 'GET', wsUrl(team.ws, 'batches'), manager)).json().batches;
    expect(batches).toEqual([]);
  });

  it('infers number, boolean, date, array and string, and nothing from an empty column', async () => {
    const csv = [
      'id,n,b,d,a,s,e',
      'x,1.5,false,2024-01-01T10:00:00Z,"[""a""]",12 Main St,',
      'y,-2,yes,2024-02-01,b|c,x | y,',
    ].join('\n');
    const preview = (await post(importer, 'profiles/import/preview', 'text/csv', csv)).json();
    const types = Object.fromEntries(
      preview.columns.map((c: { column: string; inferred: string | null }) => [c.column, c.inferred]),
    );
    expect(types).toMatchObject({ n: 'number', b: 'boolean', d: 'date', a: 'array', s: 'string', e: null });
  });

  it("reads a CRM export's own id column under its own name, and imports by it with the mapping", async () => {
    const file = 'Email Address,Customer ID,Age\nkim@example.com,crm-1,30\nlee@example.com,crm-2,40\n';
    const preview = (await post(importer, 'profiles/import/preview', 'text/csv', file)).json();
    const byColumn = Object.fromEntries(preview.columns.map((c: { column: string }) => [c.column, c]));
    expect(byColumn['Customer ID']).toMatchObject({ own: true, match: 'own', key: 'id' });
    expect(byColumn['Customer ID'].keyChange).toBe('Read as the id of each row');
    expect(preview.mapping.columns['Customer ID']).toEqual({ key: 'id' });
    // Without the mapping the file has no id column; with the preview's, it imports by Customer ID.
    const refused = (await post(importer, 'profiles/import', 'text/csv', file)).json().batch;
    expect(refused).toMatchObject({ status: 'failed', processed: 0 });
    const mapped = await post(importer, withMapping('profiles/import', preview.mapping), 'text/csv', file);
    expect(mapped.json().batch).toMatchObject({ status: 'done', processed: 2, failed: 0 });
    const profile = (await call(t, 'GET', wsUrl(team.ws, 'profiles/crm-2'), manager)).json().profile;
    expect(profile.attributes).toMatchObject({ age: 40 });
    // Events too: a user id, an event name and a timestamp.
    const events = 'user_id,event_name,timestamp,amount\ncrm-1,purchase,2024-05-01T10:00:00Z,12\n';
    const eventPreview = (await post(importer, 'customer-events/import/preview', 'text/csv', events)).json();
    expect(eventPreview.mapping.columns).toMatchObject({
      user_id: { key: 'profileId' },
      event_name: { key: 'event' },
      timestamp: { key: 'at' },
    });
    const imported = await post(
      importer,
      withMapping('customer-events/import', eventPreview.mapping),
      'text/csv',
      events,
    );
    expect(imported.json().batch).toMatchObject({ status: 'done', processed: 1 });
    // Two columns for one own name are refused, naming both.
    const twice = await post(
      importer,
      withMapping('profiles/import', { columns: { 'Customer ID': { key: 'id' } } }),
      'text/csv',
      'id,Customer ID\na,b\n',
    );
    expect(twice.json().batch.errorGroups[0].message).toBe(
      'Import stopped: The columns "id" and "Customer ID" both give id',
    );
  });

  it('refuses a header that cannot be imported with 400, and a member who may not import with 403', async () => {
    const bad = await post(importer, 'profiles/import/preview', 'text/csv', 'name,email\nx,y');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe('The header row needs the column id, or a column mapped to it');
    const denied = await post(viewer, 'profiles/import/preview', 'text/csv', CRM);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.message).toBe('You do not have permission to import customer data');
  });
});

describe('previews of bodies no import takes', () => {
  const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

  it('answers 400 naming the line for a CSV record over 1,000,000 characters', async () => {
    // Broke: the preview answered 500 where the import stopped with the line.
    const cell = 'x'.repeat(1_000_001);
    // Quoted or not, ended by a line break or by the body, the record is too long wherever pieces end.
    for (const body of [
      `id,city\nok1,Lyon\nbig,"${cell}"\n`,
      `id,city\nok1,Lyon\nbig,${cell}\nok2,Rome\n`,
      `id,city\nok1,Lyon\nbig,"${cell}`,
    ]) {
      const res = await post(importer, 'profiles/import/preview', 'text/csv', body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({
        code: 'invalid_request',
        message: 'line 3 starts a record longer than 1,000,000 characters',
      });
    }
  });

  it('answers 400 naming the line for an NDJSON line nested 5,000 levels deep, profiles and events', async () => {
    // Broke: both previews answered 500 (RangeError: Maximum call stack size exceeded).
    const lines = {
      'profiles/import/preview': [
        JSON.stringify({ id: 'ok1', attributes: { city: 'Lyon' } }),
        `{"id":"deep","attributes":{"city":${deep(5000)}}}`,
      ],
      'customer-events/import/preview': [
        JSON.stringify({ profileId: 'ok1', event: 'purchase', at: '2026-01-01T00:00:00Z' }),
        `{"profileId":"ok1","event":"purchase","at":"2026-01-01T00:00:00Z","properties":{"sku":${deep(5000)}}}`,
      ],
    };
    for (const [path, body] of Object.entries(lines)) {
      const res = await post(importer, path, 'application/x-ndjson', body.join('\n'));
      expect(res.statusCode, path).toBe(400);
      expect(res.json().error.message, path).toBe('line 2 nests deeper than 64 levels');
    }
  });

  it('stops an NDJSON import at a line nested too deep, keeping the rows before it', async () => {
    const profiles = [
      JSON.stringify({ id: 'before-deep', attributes: { city: 'Lyon' } }),
      `{"id":"deep","attributes":{"city":${deep(5000)}}}`,
      JSON.stringify({ id: 'after-deep', attributes: { city: 'Lyon' } }),
    ];
    const res = await post(importer, 'profiles/import', 'application/x-ndjson', profiles.join('\n'));
    expect(res.statusCode).toBe(201);
    expect(res.json().batch.errors).toContainEqual({
      line: 0,
      message: 'Import stopped: line 2 nests deeper than 64 levels',
    });
    const found = async (id: string) =>
      (await call(t, 'GET', wsUrl(team.ws, `profiles/${id}`), manager)).statusCode;
    expect(await found('before-deep')).toBe(200);
    expect(await found('after-deep')).toBe(404);
    const events = [
      `{"profileId":"before-deep","event":"purchase","at":"2026-01-01T00:00:00Z","properties":{"sku":${deep(5000)}}}`,
    ];
    const stopped = await post(importer, 'customer-events/import', 'application/x-ndjson', events.join('\n'));
    expect(stopped.statusCode).toBe(201);
    expect(stopped.json().batch.errors).toContainEqual({
      line: 0,
      message: 'Import stopped: line 1 nests deeper than 64 levels',
    });
  });
});

describe('mapped import', () => {
  it('creates the new attributes as items with their history, then imports under the mapped keys', async () => {
    const preview = (await post(importer, 'profiles/import/preview', 'text/csv', CRM)).json();
    const mapping = {
      ...preview.mapping,
      columns: {
        ...preview.mapping.columns,
        last_name: { key: 'lastName', type: 'string', label: 'Last name' },
        city: 'skip',
      },
    };
    const res = await post(importer, withMapping('profiles/import', mapping), 'text/csv', CRM);
    expect(res.statusCode).toBe(201);
    expect(res.json().batch).toMatchObject({ status: 'done', processed: 3, failed: 0, errorGroups: [] });
    const profile = (await call(t, 'GET', wsUrl(team.ws, 'profiles/c1'), manager)).json().profile;
    expect(profile.attributes).toEqual({
      'first-name': 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      age: 36,
      vip: true,
      'signup-date': '2024-03-01T00:00:00.000Z',
      interests: ['math', 'poetry'],
    });
    const created = (await attributeItems()).find((i) => i.data.key === 'lastName')!;
    expect(created.data).toMatchObject({ name: 'Last name', attributeType: 'string' });
    expect(created.version).toBe(1);
    const history = await call(
      t,
      'GET',
      `${itemsUrl(team.ws, 'customer-profile-attribute')}/${created.id}/history`,
      manager,
    );
    expect(history.statusCode).toBe(200);
    expect(history.json().versions).toMatchObject([{ num: 1, byName: 'Ann Analyst' }]);
    // Imported again with the same mapping, nothing is created twice.
    const again = await post(importer, withMapping('profiles/import', mapping), 'text/csv', CRM);
    expect(again.json().batch.status).toBe('done');
    expect((await attributeItems()).filter((i) => i.data.key === 'lastName')).toHaveLength(1);
  });

  it('maps NDJSON attribute keys the same way', async () => {
    const body = '{"id":"n1","attributes":{"Years":30,"notes":"x"}}\n';
    const mapping = { columns: { Years: { key: 'age' }, notes: 'skip' } };
    const res = await post(importer, withMapping('profiles/import', mapping), 'application/x-ndjson', body);
    expect(res.json().batch).toMatchObject({ status: 'done', processed: 1 });
    const profile = (await call(t, 'GET', wsUrl(team.ws, 'profiles/n1'), manager)).json().profile;
    expect(profile.attributes).toEqual({ age: 30 });
  });

  it('answers 400 for a mapping it cannot follow, before anything is written', async () => {
    const cases: [unknown, string][] = [
      [
        { columns: { nick: { key: 'nickname' } } },
        'mapping.columns.nick: no attribute has the key "nickname"; give its type to create it',
      ],
      [
        { columns: { x: { key: '1st', type: 'string' } } },
        'mapping.columns.x: "1st" cannot be a key: use letters, digits, _ and -, starting with a letter',
      ],
      [{ columns: { a: { key: 'age' }, b: { key: 'age' } } }, 'mapping.columns.b: "a" goes to "age" too'],
      [{ columns: { id: 'skip' } }, 'mapping.columns.id: the id column cannot be mapped'],
      [
        { columns: { t: { key: 'tagsNew', type: 'array' } } },
        'mapping.columns.t: an array attribute needs its options',
      ],
      [{ columns: { x: { key: 'k', type: 'colour' } } }, 'mapping.columns.x'],
      [{ nope: 1 }, 'mapping'],
    ];
    for (const [mapping, message] of cases) {
      const res = await post(importer, withMapping('profiles/import', mapping), 'text/csv', 'id\nq1\n');
      expect(res.statusCode, JSON.stringify(mapping)).toBe(400);
      expect(res.json().error.message).toContain(message);
    }
    const notJson = await post(importer, 'profiles/import?mapping=%7Bx', 'text/csv', 'id\nq1\n');
    expect(notJson.json().error.message).toBe('mapping: not valid JSON');
    expect((await call(t, 'GET', wsUrl(team.ws, 'profiles/q1'), manager)).statusCode).toBe(404);
  });

  it('a member who may import but not edit behavioral events cannot create events', async () => {
    const csv = 'profileId,event,at\np,signup,2026-01-01T00:00:00Z\n';
    const res = await post(
      importer,
      withMapping('customer-events/import', { events: { signup: {} } }),
      'text/csv',
      csv,
    );
    expect(res.statusCode).toBe(403);
  });
});

describe('event imports that map', () => {
  it('proposes unknown events and missing properties, then creates them and imports every row', async () => {
    const csv = [
      'profileId,event,at,page_url,amount',
      'c1,page_view,2026-01-01T10:00:00Z,/home,',
      'c1,purchase,2026-01-02T10:00:00Z,,12.5',
      'c2,page_view,2026-01-03T10:00:00Z,/pricing,',
      'c2,purchase,2026-01-04T10:00:00Z,/cart,3',
    ].join('\n');
    const preview = (await post(manager, 'customer-events/import/preview', 'text/csv', csv)).json();
    expect(preview.events).toEqual([
      { key: 'page_view', known: false, rows: 2, missing: [{ name: 'page_url', type: 'string' }] },
      { key: 'purchase', known: true, rows: 2, missing: [{ name: 'page_url', type: 'string' }] },
    ]);
    expect(preview.mapping.events).toEqual({
      page_view: { label: 'page_view', properties: [{ name: 'page_url', type: 'string' }] },
      purchase: { properties: [{ name: 'page_url', type: 'string' }] },
    });
    const unmapped = await post(manager, 'customer-events/import', 'text/csv', csv);
    expect(unmapped.json().batch).toMatchObject({
      status: 'done with errors',
      processed: 1,
      failed: 3,
      errorGroups: [
        { message: 'unknown event "page_view"', count: 2, lines: [2, 4] },
        { message: 'unknown property "page_url"', count: 1, lines: [5] },
      ],
    });
    const res = await post(manager, withMapping('customer-events/import', preview.mapping), 'text/csv', csv);
    expect(res.json().batch).toMatchObject({ status: 'done', processed: 4, failed: 0 });
    const c2 = (await call(t, 'GET', wsUrl(team.ws, 'profiles/c2'), manager)).json();
    expect(c2.events.map((e: { event: string }) => e.event)).toContain('page_view');
    const events = (await call(t, 'GET', itemsUrl(team.ws, 'behavioral-event'), manager)).json().items;
    const pageView = events.find((e: { data: { key: string } }) => e.data.key === 'page_view');
    expect(pageView.data.properties).toEqual([{ name: 'page_url', type: 'string' }]);
    const purchase = events.find((e: { data: { key: string } }) => e.data.key === 'purchase');
    expect(purchase.version).toBe(2);
    expect(purchase.data.properties.map((p: { name: string }) => p.name)).toContain('page_url');
  });
});

describe('batch states and grouped errors', () => {
  it('ends done with errors when some rows fail, groups errors by message, and downloads all of them as CSV', async () => {
    const rows = [
      'id,nickname,age',
      ...Array.from({ length: 1000 }, (_, i) => `g${i},g${i},`),
      'ok1,,20',
      'bad,,old',
    ];
    const res = await post(importer, 'profiles/import', 'text/csv', rows.join('\n'));
    const { batch } = res.json();
    expect(batch).toMatchObject({
      status: 'done with errors',
      total: 1002,
      processed: 1,
      failed: 1001,
      errorKinds: 2,
    });
    expect(batch.errorGroups).toEqual([
      { message: 'unknown attribute "nickname"', count: 1000, lines: [2, 3, 4, 5, 6, 7, 8, 9, 10, 11] },
      { message: 'age: "old" is not a number', count: 1, lines: [1003] },
    ]);
    expect(batch.errors).toHaveLength(100);
    const download = await call(t, 'GET', wsUrl(team.ws, `batches/${batch.id}/errors.csv`), viewer);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('text/csv; charset=utf-8');
    const csvLines = download.body.trimEnd().split('\r\n');
    expect(csvLines).toHaveLength(1002);
    expect(csvLines.slice(0, 3)).toEqual([
      'line,message',
      '2,"unknown attribute ""nickname"""',
      '3,"unknown attribute ""nickname"""',
    ]);
    expect(csvLines[1001]).toBe('1003,"age: ""old"" is not a number"');
    const listed = (await call(t, 'GET', wsUrl(team.ws, 'batches'), viewer)).json().batches;
    expect(listed.find((b: { id: string }) => b.id === batch.id).errorGroups[0].count).toBe(1000);
  });

  it('ends failed when rows failed and none was written, done when all were', async () => {
    const failed = (await post(importer, 'profiles/import', 'text/csv', 'id,nope\na,1\nb,2\n')).json().batch;
    expect(failed).toMatchObject({ status: 'failed', processed: 0, failed: 2 });
    const done = (await post(importer, 'profiles/import', 'text/csv', 'id,age\na,1\n')).json().batch;
    expect(done).toMatchObject({ status: 'done', processed: 1, failed: 0, errorKinds: 0 });
    const stopped = (await post(importer, 'profiles/import', 'text/csv', 'name\nx\n')).json().batch;
    expect(stopped.status).toBe('failed');
    expect(stopped.errorGroups).toEqual([
      {
        message: 'Import stopped: The header row needs the column id, or a column mapped to it',
        count: 1,
        lines: [0],
      },
    ]);
  });

  it('answers 404 for the errors of a batch of another workspace or none', async () => {
    expect((await call(t, 'GET', wsUrl(team.ws, 'batches/nope/errors.csv'), manager)).statusCode).toBe(404);
  });
});
