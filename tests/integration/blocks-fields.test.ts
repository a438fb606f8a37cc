import type { AppContext } from '@server/context';
import { eq } from 'drizzle-orm';
import { contentModels, items, workspaces } from '@server/db/schema';
import { normaliseLocaleSlugs } from '@server/items/locales';
import { normaliseNameSlugs } from '@server/items/name-slugs';
import { listItems } from '@server/items/repository';
import type { SchemaScope } from '@server/items/scope';
import { takeFileFacts } from '@server/items/server-owned';
import { findItemUsages } from '@server/media/usages';
import { landingPage } from '@shared/schemas/blocks-test-data';
import { builtInModelDoc } from '@shared/model/registry';
import type { SchemaType } from '@shared/schemas/types';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import { createWorkspace } from '../factories/workspaces';
import { makeImage } from '../fixtures/images';
import { uploadImage } from '../fixtures/media';

/** The server's write paths over blocks fields, with schemas built here (no built-in schema has blocks). */
let t: TestApp;
let owner: TestUser;
let ws: string;
let ctx: AppContext;
beforeAll(async () => {
  t = await createTestApp();
  owner = await verifiedUser(t, { name: 'Bea Blocks' });
  ws = (await createWorkspace(t.app, owner, 'Blocks')).id;
  ctx = { db: t.database.db, config: t.config } as AppContext;
});
afterAll(() => t.close());

/** An item row of a schema no domain of the app has: written to the table as the items service would. */
const row = (id: string, data: Record<string, unknown>, schema = landingPage.name) => ({
  workspaceId: ws,
  schema,
  id,
  data,
  version: 1,
  lastWrittenBy: 'u',
  lastWrittenAt: new Date(),
  createdBy: 'u',
});

/** The workspace's model gets a "pages" domain holding the landing page schema (written as a model change would). */
async function giveWorkspacePages() {
  const { blockTypes, ...schema } = landingPage;
  const doc = builtInModelDoc();
  doc.domains.push({ name: 'pages', title: 'Pages', schemas: [schema] });
  doc.blockTypes.push(...Object.values(blockTypes ?? {}));
  await t.database.db.insert(contentModels).values({ workspaceId: ws, version: 1, doc });
  await t.database.db.update(workspaces).set({ modelVersion: 1 }).where(eq(workspaces.id, ws));
}

const upload = async (seed: number) =>
  uploadImage(t, owner, ws, await makeImage({ seed, width: 64, height: 48 }), `image-${seed}.png`);

describe('file values inside blocks', () => {
  it('take their facts from the file record, at any depth', async () => {
    const file = await upload(1);
    const icon = await upload(2);
    const forged = { ...file, size: 1, publicUrl: 'https://evil.example/x.png', name: 'Hero image' };
    const data: Record<string, unknown> = {
      sections: [
        { _type: 'hero', _key: 'h', image: forged },
        {
          _type: 'feature-grid',
          _key: 'g',
          features: [{ _type: 'feature', _key: 'f', icon: { ...icon, contentType: 'text/html' } }],
        },
      ],
    };
    await takeFileFacts(ctx, ws, landingPage, data);
    const [hero, grid] = data.sections as Record<string, Record<string, unknown>>[];
    expect(hero.image).toMatchObject({
      name: 'Hero image',
      size: file.size,
      publicUrl: file.publicUrl,
      storageName: file.storageName,
    });
    expect((grid.features as unknown as Record<string, Record<string, unknown>>[])[0].icon.contentType).toBe(
      'image/png',
    );
  });

  it('are refused, naming the block path, when no upload of the workspace', async () => {
    const data = {
      sections: [
        { _type: 'hero', _key: 'h' },
        {
          _type: 'hero',
          _key: 'i',
          image: {
            name: 'x',
            size: 1,
            contentType: 'image/png',
            storageName: 'Nope1234567890abcdef.png',
            publicUrl: 'x',
          },
        },
      ],
    };
    await expect(takeFileFacts(ctx, ws, landingPage, data)).rejects.toThrow(
      'data.sections.1.image: File not found',
    );
  });

  it("are found as usages of the item's page, once per item", async () => {
    const file = await upload(3);
    const other = await upload(4);
    await giveWorkspacePages();
    await t.database.db.insert(items).values([
      row('top', {
        name: 'Top',
        sections: [
          { _type: 'hero', _key: 'a', image: file },
          { _type: 'hero', _key: 'b', image: file },
        ],
      }),
      row('deep', {
        name: 'Deep',
        sections: [
          { _type: 'feature-grid', _key: 'g', features: [{ _type: 'feature', _key: 'f', icon: file }] },
        ],
      }),
      row('elsewhere', { name: 'Elsewhere', sections: [{ _type: 'hero', _key: 'a', image: other }] }),
    ]);
    const usages = await findItemUsages(ctx, ws, [file.storageName]);
    expect(usages.get(file.storageName)).toEqual(
      expect.arrayContaining([
        { url: `/${ws}/pages/landing-page/top`, title: 'Landing page "Top"' },
        { url: `/${ws}/pages/landing-page/deep`, title: 'Landing page "Deep"' },
      ]),
    );
    expect(usages.get(file.storageName)).toHaveLength(2);
    expect(usages.has(other.storageName)).toBe(false);
  });
});

describe('name-slugs inside blocks', () => {
  const withAnchors: SchemaType = {
    ...landingPage,
    fields: [landingPage.fields[0], { ...landingPage.fields[1], localized: true }],
    blockTypes: {
      ...landingPage.blockTypes,
      hero: {
        ...landingPage.blockTypes!.hero,
        fields: [
          { key: 'title', label: 'Title', type: 'text' },
          { key: 'anchor', label: 'Anchor', type: 'name-slug', from: 'title' },
        ],
      },
    },
    locales: { default: 'en-US', others: ['fr-FR'] },
  };
  const scope = { schema: withAnchors } as SchemaScope;

  it('are kebab-cased or derived from their block on save, in every locale', async () => {
    const data = {
      sections: [{ _type: 'hero', _key: 'h', title: 'Spring Sale', anchor: '' }],
      _locales: { 'fr-FR': { sections: [{ _type: 'hero', _key: 'h', title: 'x', anchor: 'Les Soldes' }] } },
    };
    const slugged = normaliseLocaleSlugs(withAnchors, await normaliseNameSlugs(ctx, scope, data));
    expect(slugged).toEqual({
      sections: [{ _type: 'hero', _key: 'h', title: 'Spring Sale', anchor: 'spring-sale' }],
      _locales: { 'fr-FR': { sections: [{ _type: 'hero', _key: 'h', title: 'x', anchor: 'les-soldes' }] } },
    });
  });
});

describe('localised blocks fields in lists', () => {
  it('count an empty list as no value when listing items missing a locale', async () => {
    const schema = 'landing-page-locales';
    const hero = [{ _type: 'hero', _key: 'h', title: 'Hi' }];
    await t.database.db
      .insert(items)
      .values([
        row('translated', { sections: hero, _locales: { 'fr-FR': { sections: hero } } }, schema),
        row('empty-in-fr', { sections: hero, _locales: { 'fr-FR': { sections: [] } } }, schema),
        row('none-in-fr', { sections: hero }, schema),
        row('empty-default', { sections: [], _locales: {} }, schema),
      ]);
    const found = await listItems(t.database.db, {
      workspaceId: ws,
      schemas: [schema],
      filter: { kind: 'all' },
      limit: 10,
      missingIn: { locale: 'fr-FR', keys: ['sections'] },
    });
    expect(found.map((listed) => listed.item.id).sort()).toEqual(['empty-in-fr', 'none-in-fr']);
  });
});
