import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import { JSDOM } from 'jsdom';
import { createTestApp, sendingServer, type TestApp } from '../helpers/test-app';
import { startSmtpSink } from '../fixtures/smtp-sink';
import { verifiedUser, type TestUser } from '../factories/users';
import { createWorkspace, patchWorkspace } from '../factories/workspaces';
import { call, createItem, saveItem } from '../factories/items';
import { defineCustomerData, group, importBody, wsUrl } from '../factories/customers';
import { sendableCampaign, type SendableCampaign } from '../factories/campaigns';
import { seedSend, type SeededSend } from '../factories/campaign-sends';

/**
 * What the app writes out of values its customers' customers control (a CSV import, `/ingest/v1/identify`):
 * every CSV it answers (an audience's profiles, an import's errors, a send's results) holds no cell a spreadsheet would
 * run as a formula, and no merge into a URL of a message (sent, test-sent or previewed) makes a
 * script URL.
 */

let t: TestApp;
let plain: TestApp;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let manager: TestUser;
let ws: string;
let audienceId: string;
let campaign: SendableCampaign;

/** The template of every message below: merge tags where a link, an image and a background go. */
const TEMPLATE = {
  'gjs-nl-html':
    '<table><tr><td background="{{avatar}}"><p><a href="{{website}}">Site</a> <a href="{{website|https://default.test/}}">Or</a>' +
    ' <img src="{{avatar}}" alt="{{first-name}}"></p></td></tr></table>',
  'gjs-nl-css': '',
};

beforeAll(async () => {
  sink = await startSmtpSink();
  plain = await createTestApp();
  // Accounts are made through `plain` (its mail goes to the outbox); everything else through `t`,
  // which sends to the SMTP sink and runs the send jobs.
  t = await sendingServer(plain, sink.url, { campaigns: { chunkSize: 50 } });
  manager = await verifiedUser(plain, { name: 'Output Manager' });
  ws = (await createWorkspace(t.app, manager, 'Output')).id;
  await patchWorkspace(t.app, manager, ws, { basics: { domains: ['marketing'], stages: ['Live'] } });
  await defineCustomerData(t, manager, ws);
  audienceId = (
    await createItem(t, manager, ws, 'audience', { name: 'Everyone', criteria: group('and', []) })
  ).id;
  campaign = await sendableCampaign(t, manager, ws, [], { noTracking: true });
  for (const key of ['website', 'avatar']) {
    await createItem(t, manager, ws, 'customer-profile-attribute', {
      name: key,
      key,
      attributeType: 'string',
    });
  }
  await saveItem(t, manager, ws, 'email', campaign.emailId, {
    name: 'Letter',
    subject: 'Links for {{first-name|you}}',
    template: TEMPLATE,
    testAddresses: 'qa@example.com',
  });
});
afterAll(async () => {
  await t.close();
  await plain.close();
  await sink.close();
});

/** The characters a spreadsheet starts a formula with (or that it drops before one). */
const FORMULA_STARTS = ['=', '+', '-', '@', '\t', '\r'];
/** A cell a spreadsheet would run: a formula start that is not simply a number. */
const isFormula = (cell: string) => /^[=+\-@\t\r]/.test(cell) && !/^[+-]?\d+(?:\.\d+)?$/.test(cell);

/** Imports profiles as NDJSON and expects every row to be taken. */
async function importProfiles(profiles: { id: string; attributes: Record<string, unknown> }[]) {
  const body = profiles.map((profile) => JSON.stringify(profile)).join('\n');
  const res = await importBody(t, manager, ws, 'profiles', 'application/x-ndjson', body);
  expect(res.json().batch, res.body).toMatchObject({ failed: 0 });
  return res.json().batch as { id: string };
}

/** Every CSV the app writes, as the cells a spreadsheet reads. */
async function everyCsv(batchIds: string[], sends: SeededSend[] = []) {
  const urls = [
    `audiences/${audienceId}/profiles.csv`,
    ...batchIds.map((id) => `batches/${id}/errors.csv`),
    ...sends.map((send) => `campaigns/${send.campaignId}/sends/${send.id}/results.csv`),
  ];
  const files: { url: string; rows: string[][] }[] = [];
  for (const url of urls) {
    const res = await call(t, 'GET', wsUrl(ws, url), manager);
    expect(res.statusCode, url).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    files.push({ url, rows: parse(res.body, { relaxQuotes: false }) as string[][] });
  }
  return files;
}

describe('CSV answers', () => {
  it('escapes cells that a spreadsheet would run as formulas, in profile ids and attributes', async () => {
    // Broke: ids and attributes such as =1+2 and =HYPERLINK(…) came out of profiles.csv as formulas.
    const values = ['=1+2', '+1+1', '-2+3', '@SUM(A1:A2)', '=HYPERLINK("https://evil.test","x")', '\t=1'];
    await importProfiles(
      values.map((value, i) => ({ id: value, attributes: { city: value, tags: [], age: -i - 1 } })),
    );
    const res = await call(t, 'GET', wsUrl(ws, `audiences/${audienceId}/profiles.csv`), manager);
    const rows = parse(res.body) as string[][];
    const [header, ...body] = rows;
    const column = (name: string) => header.indexOf(name);
    for (const value of values) {
      const row = body.find((cells) => cells[column('city')] === `'${value}`);
      expect(row, value).toBeDefined();
      // Ids are trimmed on import.
      expect(row![0]).toBe(`'${value.trim()}`);
    }
    // A negative number is a number, not a formula: it stays as it is.
    expect(body.map((cells) => cells[column('age')]).sort()).toEqual(['-1', '-2', '-3', '-4', '-5', '-6']);
    for (const cells of rows) for (const cell of cells) expect(isFormula(cell), cell).toBe(false);
  });
});

/** Text a customer's customer may send: the formula starts and what quoting and line breaks trip on. */
const tail = fc.string({
  unit: fc.oneof(
    fc.constantFrom('=', '+', '-', '@', '"', "'", ',', ';', '\t', '\r', '\n', '|', '(', ')', ' '),
    fc.string({ minLength: 1, maxLength: 1 }),
  ),
  maxLength: 12,
});
const dangerous = fc.tuple(fc.constantFrom(...FORMULA_STARTS), tail).map(([start, rest]) => start + rest);

describe('property sweep', () => {
  let n = 0;
  const batches: string[] = [];

  it('no CSV the app writes holds a formula, whatever profile values start with', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(dangerous, dangerous), { minLength: 1, maxLength: 4 }),
        async (values) => {
          // Ids are made unique per run; the value still starts with the formula start.
          const profiles = values.map(([id, city]) => ({ id: `${id}#${++n}`, attributes: { city } }));
          batches.push((await importProfiles(profiles)).id);
          // Values that an import refuses end up in its errors.csv.
          const refused = values.map(([id, city]) =>
            JSON.stringify({ id: `${id}#${++n}`, attributes: { age: city } }),
          );
          const res = await importBody(
            t,
            manager,
            ws,
            'profiles',
            'application/x-ndjson',
            refused.join('\n'),
          );
          batches.push(res.json().batch.id);
          // A send to these profiles, at addresses that start as the values do.
          const send = await seedSend(t, ws, {
            recipients: profiles.map((profile) => ({
              profileId: profile.id,
              email: `${profile.id}@example.test`,
            })),
          });
          for (const file of await everyCsv(batches.slice(-2), [send])) {
            for (const cells of file.rows) {
              for (const cell of cells)
                expect(isFormula(cell), `${file.url}: ${JSON.stringify(cell)}`).toBe(false);
            }
          }
        },
      ),
      { numRuns: 15 },
    );
  }, 120_000);
});

/** Every URL attribute of an HTML message, read as a browser reads it, with the scheme it would use. */
function urlsOf(html: string) {
  const document = new JSDOM(html).window.document;
  const found: { attribute: string; value: string; protocol: string }[] = [];
  for (const element of document.querySelectorAll('*')) {
    for (const { name, value } of element.attributes) {
      if (!['href', 'src', 'background', 'srcset', 'action', 'poster', 'cite', 'xlink:href'].includes(name))
        continue;
      let protocol: string;
      try {
        protocol = new URL(value, 'http://relative.invalid/').protocol;
      } catch {
        protocol = 'unparsable';
      }
      found.push({ attribute: name, value, protocol });
    }
  }
  return found;
}

/** A message holds no URL of a scheme other than http, https, mailto and tel, and loads over http(s). */
function expectNoScriptUrl(html: string, what: string) {
  for (const url of urlsOf(html)) {
    const allowed = url.attribute === 'href' ? ['http:', 'https:', 'mailto:', 'tel:'] : ['http:', 'https:'];
    expect(allowed, `${what}: ${url.attribute}=${JSON.stringify(url.value)}`).toContain(url.protocol);
  }
}

let profileCount = 0;
/** Profiles on the campaign's list whose website and avatar are the values given. */
async function importLinkProfiles(values: string[]) {
  const ids = values.map(() => `m${++profileCount}`);
  await importProfiles(
    values.map((value, i) => ({
      id: ids[i],
      attributes: { email: `${ids[i]}@example.test`, list: 'news', website: value, avatar: value },
    })),
  );
  return ids;
}

const campaignUrl = (id: string, rest: string) => wsUrl(ws, `campaigns/${id}${rest}`);

/** Sends a campaign now and answers the messages it sent, by recipient. */
async function sendNow(campaignId: string) {
  const before = sink.received.length;
  const res = await call(t, 'POST', campaignUrl(campaignId, '/send'), manager, { now: true });
  expect(res.statusCode, res.body).toBe(202);
  const sendId = res.json().send.id as string;
  await expect
    .poll(
      async () =>
        (await call(t, 'GET', campaignUrl(campaignId, `/sends/${sendId}`), manager)).json().state as string,
      { timeout: 60_000, interval: 50 },
    )
    .toBe('done');
  return new Map(
    sink.received
      .slice(before)
      .map((m) => [m.envelopeTo[0], { html: String(m.mail.html), text: m.mail.text }]),
  );
}

const SCRIPT_URLS = [
  'javascript:alert(document.domain)',
  ' JaVaScRiPt:alert(1)',
  'data:text/html,<script>alert(1)</script>',
];

describe('merges into URLs', () => {
  it('never sends, test-sends or previews a script URL a profile value made, and keeps good ones', async () => {
    // Broke: <a href="{{website}}"> with a website of javascript:… or data:… was sent (and previewed) as it was.
    const ids = await importLinkProfiles([...SCRIPT_URLS, 'https://ok.example/page?a=1&b=2']);
    const good = ids.at(-1)!;
    const sent = await sendNow(campaign.campaignId);
    expect(sent.size).toBe(ids.length);
    for (const id of ids) expectNoScriptUrl(sent.get(`${id}@example.test`)!.html, `sent to ${id}`);
    const goodHtml = sent.get(`${good}@example.test`)!.html;
    expect(goodHtml).toContain('href="https://ok.example/page?a=1&amp;b=2"');
    expect(goodHtml).toContain('src="https://ok.example/page?a=1&amp;b=2"');
    const badHtml = sent.get(`${ids[0]}@example.test`)!.html;
    // The links' texts stay, without a target: a value that makes no URL drops it, default or not.
    expect(badHtml).toContain('<a>Site</a>');
    expect(badHtml).toContain('<a>Or</a>');

    for (const id of ids) {
      const preview = await call(
        t,
        'GET',
        campaignUrl(campaign.campaignId, `/preview?profileId=${id}`),
        manager,
      );
      expect(preview.statusCode).toBe(200);
      expectNoScriptUrl(preview.json().html, `campaign preview of ${id}`);
      const email = await call(
        t,
        'GET',
        wsUrl(ws, `emails/${campaign.emailId}/preview?profileId=${id}`),
        manager,
      );
      expect(email.statusCode).toBe(200);
      expectNoScriptUrl(email.json().html, `email preview of ${id}`);
    }
    const before = sink.received.length;
    const tested = await call(t, 'POST', campaignUrl(campaign.campaignId, '/test-send'), manager, {
      profileId: ids[0],
    });
    expect(tested.statusCode, tested.body).toBe(200);
    await expect.poll(() => sink.received.length).toBe(before + 1);
    expectNoScriptUrl(String(sink.received.at(-1)!.mail.html), 'test send');
  });

  it('tracks a merged link like any other: its click goes to the profile’s URL, never to a script URL', async () => {
    const [bad, good] = await importLinkProfiles(['javascript:alert(1)', 'https://ok.example/mine']);
    const tracked = await createItem(t, manager, ws, 'campaign', {
      name: 'Tracked',
      email: { schemaType: 'email', id: campaign.emailId, label: 'Letter' },
      audience: { schemaType: 'audience', id: campaign.audienceId, label: 'News list' },
      sender: campaign.senderId,
    });
    const sent = await sendNow(tracked.id);
    const clicks = (id: string) =>
      [
        ...sent.get(`${id}@example.test`)!.html.matchAll(/href="http:\/\/marquee\.test(\/t\/c\/[\w.-]+)"/g),
      ].map((m) => m[1]);
    // Both merged links are click links, for every recipient.
    expect(clicks(good)).toHaveLength(2);
    expect(clicks(bad)).toHaveLength(2);
    const goodClick = await t.app.inject({ method: 'GET', url: clicks(good)[0] });
    expect(goodClick.statusCode).toBe(302);
    expect(goodClick.headers.location).toBe('https://ok.example/mine');
    const badClick = await t.app.inject({ method: 'GET', url: clicks(bad)[0] });
    expect(badClick.statusCode).toBe(404);
    expect(badClick.headers.location).toBeUndefined();
    expect((await t.app.inject({ method: 'GET', url: clicks(bad)[1] })).statusCode).toBe(404);
  });
});

/**
 * A letter in either case, now and then entity-encoded or followed by a tab or line break (most values
 * stay live script URLs once the browser has read them, so a merge that lets them through shows).
 */
const spelled = (letter: string) =>
  fc
    .tuple(
      fc.boolean(),
      fc.oneof(
        { weight: 9, arbitrary: fc.constant('plain') },
        { weight: 1, arbitrary: fc.constantFrom('decimal', 'hex') },
      ),
      fc.oneof(
        { weight: 8, arbitrary: fc.constant('') },
        { weight: 1, arbitrary: fc.constantFrom('\t', '\n', '\r', '&#9;', '&Tab;', '&NewLine;') },
      ),
    )
    .map(([upper, encoding, after]) => {
      const c = upper ? letter.toUpperCase() : letter;
      const code = c.charCodeAt(0);
      const written =
        encoding === 'plain' ? c : encoding === 'decimal' ? `&#${code};` : `&#x${code.toString(16)};`;
      return written + after;
    });
/** A script URL as an attacker spells it: case, leading spaces and control characters, entities, breaks. */
const scriptUrl = fc
  .tuple(
    fc.constantFrom('', ' ', '  ', '\t', '\n', '\u0001', '\u001f', '\u000b', ' \u0008 '),
    fc.constantFrom('javascript', 'data', 'vbscript'),
    fc.oneof(
      { weight: 4, arbitrary: fc.constant(':') },
      { weight: 1, arbitrary: fc.constantFrom('&#58;', '&#x3a;', '&colon;') },
    ),
    fc.constantFrom('alert(1)', 'text/html,<script>alert(1)</script>', 'text/html;base64,PHNjcmlwdD4='),
  )
  .chain(([lead, scheme, colon, rest]) =>
    fc.tuple(...[...scheme].map(spelled)).map((letters) => `${lead}${letters.join('')}${colon}${rest}`),
  );

describe('property sweep of merges', () => {
  it('no message holds a script URL, however a profile value spells one', async () => {
    const ids: string[] = [];
    await fc.assert(
      fc.asyncProperty(scriptUrl, async (value) => {
        const [id] = await importLinkProfiles([value]);
        ids.push(id);
        const preview = await call(
          t,
          'GET',
          campaignUrl(campaign.campaignId, `/preview?profileId=${id}`),
          manager,
        );
        expectNoScriptUrl(preview.json().html, `campaign preview of ${JSON.stringify(value)}`);
        const email = await call(
          t,
          'GET',
          wsUrl(ws, `emails/${campaign.emailId}/preview?profileId=${id}`),
          manager,
        );
        expectNoScriptUrl(email.json().html, `email preview of ${JSON.stringify(value)}`);
      }),
      { numRuns: 40 },
    );
    // And as sent: every profile above gets the campaign.
    const sent = await sendNow(campaign.campaignId);
    for (const id of ids) expectNoScriptUrl(sent.get(`${id}@example.test`)!.html, `sent to ${id}`);
  }, 120_000);
});
