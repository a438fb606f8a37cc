import ts from 'typescript';
import { landingPage, nestingBlock } from './blocks-test-data';
import { BUILT_IN_DOMAINS } from './catalogue';
import { generateTypes, typeNameOf } from './typegen';
import { getSchema } from './catalogue';

/** Diagnostics per file of pieces of TypeScript compiled together as separate modules. */
function diagnostics(sources: Record<string, string>) {
  const options = { strict: true, noEmit: true, types: [] as string[] };
  const host = ts.createCompilerHost(options);
  const original = host.getSourceFile;
  host.getSourceFile = (name, version) =>
    name in sources ? ts.createSourceFile(name, sources[name], version) : original.call(host, name, version);
  const program = ts.createProgram(Object.keys(sources), options, host);
  return Object.fromEntries(
    Object.keys(sources).map((name) => [
      name,
      ts
        .getPreEmitDiagnostics(program, program.getSourceFile(name))
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')),
    ]),
  );
}

describe('generateTypes', () => {
  it('names the type after the schema', () => {
    expect(typeNameOf('marquee-assets-image-set')).toBe('MarqueeAssetsImageSet');
    expect(typeNameOf('blog-post')).toBe('BlogPost');
  });

  it('writes required fields as required, optional ones as optional, with time zone companions', () => {
    const text = generateTypes(getSchema('event')!);
    expect(text).toContain('export interface Event {');
    expect(text).toMatch(/\n {2}name: string;/);
    expect(text).toMatch(/\n {2}startTime: string;/);
    expect(text).toMatch(/\n {2}startTime_tz\?: string;/);
    expect(text).toMatch(/\n {2}copy\?: Reference\[\];/);
    expect(text).toContain('export interface Reference {');
  });

  it('types selects as unions of their option values and tables as arrays of rows', () => {
    const text = generateTypes(getSchema('behavioral-event')!);
    expect(text).toMatch(/properties\?: Array<\{/);
    const copy = generateTypes(getSchema('copy')!);
    expect(copy).toMatch(/channel\?: '[^']+'( \| '[^']+')+;/);
    expect(copy).toContain('combinations?: CombinationRow[];');
  });

  it('types a blocks field as an array of a union of block interfaces, each written once', () => {
    const schema = {
      ...landingPage,
      fields: [
        ...landingPage.fields,
        { key: 'aside', label: 'Aside', type: 'blocks' as const, blockTypes: ['call-to-action', 'gone'] },
        { key: 'tree', label: 'Tree', type: 'blocks' as const, blockTypes: ['nest'] },
        { key: 'none', label: 'None', type: 'blocks' as const, blockTypes: [] },
      ],
      blockTypes: {
        ...landingPage.blockTypes,
        nest: nestingBlock,
        '3-up': { name: '3-up', title: 'Three', fields: [] },
      },
    };
    const text = generateTypes(schema);
    expect(text).toMatch(/\n {2}sections\?: Array<HeroBlock \| FeatureGridBlock \| CallToActionBlock>;/);
    expect(text).toMatch(/\n {2}aside\?: Array<CallToActionBlock>;/);
    expect(text).toMatch(/\n {2}none\?: never\[\];/);
    expect(text.match(/export interface CallToActionBlock \{/g)).toHaveLength(1);
    expect(text).toContain(
      "export interface FeatureGridBlock {\n  /** The block type. */\n  _type: 'feature-grid';",
    );
    expect(text).toMatch(
      /export interface FeatureBlock \{[^}]*_type: 'feature';\n[^}]*_key: string;[^}]*\n {2}name: string;/,
    );
    expect(text).toMatch(/\n {2}features\?: Array<FeatureBlock>;/);
    expect(text).toMatch(/export interface NestBlock \{[^}]*children\?: Array<NestBlock>;/);
    expect(text).toContain('export interface Reference {');
    expect(text.indexOf('export interface HeroBlock')).toBeLessThan(
      text.indexOf('export interface LandingPage {'),
    );
    expect(diagnostics({ 'landing-page.ts': text })).toEqual({ 'landing-page.ts': [] });
    const usable = `${text}\nconst page: LandingPage = { name: 'x', sections: [{ _type: 'hero', _key: 'a', title: 'Hi', buttonText: 'Go' }] };\nconst bad: LandingPage = { name: 'x', sections: [{ _type: 'feature', _key: 'a', name: 'n' }] };\nexport { page, bad };\n`;
    expect(diagnostics({ 'use.ts': usable })['use.ts']).toEqual([
      expect.stringContaining(
        `Type '"feature"' is not assignable to type '"hero" | "feature-grid" | "call-to-action"'`,
      ),
    ]);
  }, 30_000);

  it('names block interfaces apart from the item, the shared shapes and each other', () => {
    const text = generateTypes({
      ...landingPage,
      name: 'hero-block',
      fields: [{ key: 'b', label: 'B', type: 'blocks', blockTypes: ['hero', 'reference', 'hero_', '3-up'] }],
      blockTypes: {
        hero: { name: 'hero', title: 'Hero', fields: [] },
        hero_: { name: 'hero_', title: 'Hero too', fields: [] },
        reference: { name: 'reference', title: 'Reference', fields: [] },
        '3-up': { name: '3-up', title: 'Three', fields: [] },
      },
    });
    expect(text).toMatch(/\n {2}b\?: Array<HeroBlock2 \| ReferenceBlock \| HeroBlock3 \| _3UpBlock>;/);
    expect(text).toContain('export interface HeroBlock {');
  });

  it('emits valid TypeScript for every built-in schema', () => {
    const schemas = BUILT_IN_DOMAINS.flatMap((d) => d.schemas);
    const sources = Object.fromEntries(schemas.map((s) => [`${s.name}.ts`, generateTypes(s)]));
    const found = diagnostics(sources);
    expect(found).toEqual(Object.fromEntries(schemas.map((s) => [`${s.name}.ts`, []])));
    // Type-checks every schema with the TypeScript compiler: seconds on a busy machine.
  }, 30_000);
});
