import fc from 'fast-check';
import type { FieldDef, SchemaType } from '../schemas/types';
import { applyOps, ModelChangeError } from './apply';
import { diffModels } from './diff';
import { opsFromSeeds, type OpSeed } from './random-ops';
import { sampleModel } from './test-models';
import type { ContentModelDoc } from './types';
import { builtInModelDoc } from './registry';

const pageOf = (doc: ContentModelDoc) =>
  doc.domains.at(-1)!.schemas[0] as SchemaType & { fields: FieldDef[] };

/** The sample model with the "page" schema's fields as `edit` leaves them. */
function withPage(edit: (page: SchemaType & { fields: FieldDef[] }) => void): ContentModelDoc {
  const doc = sampleModel();
  edit(pageOf(doc));
  return doc;
}

const withoutHintOf = (field: FieldDef): FieldDef =>
  field.type === 'table'
    ? {
        ...field,
        columns: field.columns.map(
          ({ renamedFrom: _hint, ...column }: FieldDef & { renamedFrom?: string }) => column as FieldDef,
        ),
      }
    : field;

/** Applies a document to a model: the ops, the resulting model, and the ops of applying it again. */
function applyDocument(from: ContentModelDoc, to: ContentModelDoc) {
  const ops = diffModels(from, to);
  const result = applyOps(from, ops);
  return { ops, result, again: diffModels(result, to) };
}

describe('diffModels', () => {
  it('gives nothing between a model and itself', () => {
    expect(diffModels(builtInModelDoc(), builtInModelDoc())).toEqual([]);
    expect(diffModels(sampleModel(), sampleModel())).toEqual([]);
  });

  it('renames a field carrying renamedFrom, once, and strips the hint', () => {
    const to = applyOps(sampleModel(), [{ op: 'renameField', schema: 'page', from: 'title', to: 'heading' }]);
    const hinted = { key: 'heading', label: 'Heading', type: 'text', renamedFrom: 'title' };
    pageOf(to).fields[0] = hinted as FieldDef;
    const { ops, result, again } = applyDocument(sampleModel(), to);
    expect(ops).toEqual([
      { op: 'renameField', schema: 'page', from: 'title', to: 'heading' },
      { op: 'updateField', schema: 'page', key: 'heading', patch: { label: 'Heading' } },
    ]);
    expect(pageOf(result).fields[0]).toEqual({ key: 'heading', label: 'Heading', type: 'text' });
    expect(pageOf(result).fields[1]).toMatchObject({ from: 'heading' });
    expect(pageOf(result).topFields).toEqual(['heading', 'slug']);
    expect(again).toEqual([]);
  });

  it('ignores a rename hint when the new key already exists', () => {
    const to = withPage((page) => {
      page.fields[2] = { ...page.fields[2], renamedFrom: 'image' } as unknown as FieldDef;
    });
    expect(diffModels(sampleModel(), to)).toEqual([]);
  });

  it('retypes a kept key whose type changes, or whose select becomes multiple', () => {
    const teaser: FieldDef = { key: 'teaser', label: 'Teaser', type: 'rich-text' };
    const to = withPage((page) => {
      page.fields[2] = teaser;
      page.fields.push({
        key: 'kind',
        label: 'Kind',
        type: 'select',
        multiple: true,
        options: [{ value: 'a', label: 'A' }],
      });
    });
    const from = withPage((page) => {
      page.fields.push({ key: 'kind', label: 'Kind', type: 'select', options: [{ value: 'a', label: 'A' }] });
    });
    const { ops, result, again } = applyDocument(from, to);
    expect(ops).toEqual([
      { op: 'retypeField', schema: 'page', key: 'teaser', field: teaser },
      { op: 'retypeField', schema: 'page', key: 'kind', field: pageOf(to).fields[4] },
    ]);
    expect(result).toEqual(to);
    expect(again).toEqual([]);
  });

  it('patches only the changed properties, null for removed ones', () => {
    const to = withPage((page) => {
      page.fields[2] = { key: 'teaser', label: 'Intro', type: 'multiline', rows: 3 };
      page.title = 'Web page';
      delete page.thumbnail;
    });
    expect(diffModels(sampleModel(), to)).toEqual([
      {
        op: 'updateField',
        schema: 'page',
        key: 'teaser',
        patch: { label: 'Intro', displayIf: null, rows: 3 },
      },
      { op: 'updateSchema', schema: 'page', patch: { title: 'Web page', thumbnail: null } },
    ]);
  });

  it("sets a schema's preview URLs from a document, and changes nothing the second time", () => {
    const to = withPage((page) => {
      page.previewUrls = ['https://www.example.com/{slug}?locale={locale}'];
    });
    const ops = diffModels(sampleModel(), to);
    expect(ops).toEqual([
      {
        op: 'updateSchema',
        schema: 'page',
        patch: { previewUrls: ['https://www.example.com/{slug}?locale={locale}'] },
      },
    ]);
    expect(diffModels(applyOps(sampleModel(), ops), to)).toEqual([]);
  });

  it('adds domains first, then schemas and fields; removes last; moves where the order differs', () => {
    const to = sampleModel();
    const site = to.domains.at(-1)!;
    to.domains.splice(to.domains.length - 1, 1, { name: 'news', title: 'News', schemas: [] });
    const [page] = site.schemas;
    to.domains.at(-1)!.schemas.push(
      {
        ...page,
        fields: [
          page.fields[3],
          page.fields[0],
          { key: 'body', label: 'Body', type: 'rich-text' },
          page.fields[1],
        ],
        thumbnail: 'image',
      },
      { ...page, name: 'post', title: 'Post', pluralTitle: 'Posts' },
    );
    to.blockTypes = [{ name: 'quote', title: 'Quote', fields: [] }];
    const { ops, result, again } = applyDocument(sampleModel(), to);
    expect(ops.map((op) => op.op)).toEqual([
      'addDomain',
      'addBlockType',
      'addSchema',
      'addField',
      'removeField',
      'moveField',
      'moveField',
      'removeSchema',
      'moveSchema',
      'removeBlockType',
      'removeDomain',
    ]);
    expect(result).toEqual(to);
    expect(again).toEqual([]);
  });

  it('reorders domains, block types and the schemas of a domain that only a document reorders', () => {
    const to = builtInModelDoc();
    to.domains.reverse();
    to.domains[0].schemas.reverse();
    to.blockTypes = [
      { name: 'hero', title: 'Hero', fields: [] },
      { name: 'quote', title: 'Quote', fields: [] },
    ];
    const from = structuredClone(to);
    from.blockTypes.reverse();
    from.domains.reverse();
    const { ops, result, again } = applyDocument(from, to);
    expect(new Set(ops.map((op) => op.op))).toEqual(new Set(['moveDomain', 'moveBlockType']));
    expect(result).toEqual(to);
    expect(again).toEqual([]);
    const schemasOnly = applyDocument(builtInModelDoc(), to);
    expect(schemasOnly.ops.some((op) => op.op === 'moveSchema')).toBe(true);
    expect(schemasOnly.result).toEqual(to);
    expect(schemasOnly.again).toEqual([]);
  });

  it('changes the columns of a kept table by operations on its columns, so their values follow', () => {
    const text = (key: string): FieldDef => ({ key, label: key, type: 'text' });
    const from = withPage((page) => {
      page.fields.push({
        key: 'prices',
        label: 'Prices',
        type: 'table',
        columns: [text('a'), text('b'), text('c')],
      });
    });
    const to = withPage((page) => {
      page.fields.push({
        key: 'prices',
        label: 'Price list',
        type: 'table',
        columns: [
          { key: 'c', label: 'c', type: 'number' },
          { ...text('name'), renamedFrom: 'a' } as unknown as FieldDef,
          text('d'),
        ],
      });
    });
    const { ops, result, again } = applyDocument(from, to);
    const owner = { schema: 'page', table: 'prices' };
    expect(ops).toEqual([
      { op: 'renameField', ...owner, from: 'a', to: 'name' },
      { op: 'retypeField', ...owner, key: 'c', field: { key: 'c', label: 'c', type: 'number' } },
      { op: 'updateField', ...owner, key: 'name', patch: { label: 'name' } },
      { op: 'addField', ...owner, field: text('d'), index: 2 },
      { op: 'updateField', schema: 'page', key: 'prices', patch: { label: 'Price list' } },
      { op: 'removeField', ...owner, key: 'b' },
      { op: 'moveField', ...owner, key: 'c', index: 0 },
    ]);
    expect(result).toEqual(withPage((page) => page.fields.push(withoutHintOf(pageOf(to).fields.at(-1)!))));
    expect(again).toEqual([]);
  });

  it('leaves locked fields locked, and refuses a document removing one', () => {
    const unlocked = builtInModelDoc();
    for (const domain of unlocked.domains)
      for (const schema of domain.schemas)
        schema.fields = schema.fields.map(({ locked: _locked, ...field }) => field as FieldDef);
    expect(diffModels(builtInModelDoc(), unlocked)).toEqual([]);
    const withoutEmail = builtInModelDoc();
    const campaign = withoutEmail.domains[0].schemas.find((schema) => schema.name === 'campaign')!;
    campaign.fields = campaign.fields.filter((field) => field.key !== 'email');
    expect(() => diffModels(builtInModelDoc(), withoutEmail)).toThrow(
      new ModelChangeError(
        'ops.0 (removeField): Schema "campaign": field "email" is locked (Marquee relies on it)',
      ),
    );
  });

  it('turns a model into any model random change sets lead to', () => {
    const seed = fc.tuple(fc.nat(), fc.nat(), fc.nat(), fc.nat()) as fc.Arbitrary<OpSeed>;
    fc.assert(
      fc.property(fc.array(seed, { maxLength: 30 }), (seeds) => {
        const from = sampleModel();
        const to = applyOps(from, opsFromSeeds(from, seeds));
        const { result, again } = applyDocument(from, to);
        expect(result).toEqual(to);
        expect(again).toEqual([]);
        expect(applyDocument(to, from).result).toEqual(from);
      }),
      { numRuns: 100 },
    );
  }, 60_000);
});
