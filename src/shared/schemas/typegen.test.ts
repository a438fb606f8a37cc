import ts from 'typescript';
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

  it('emits valid TypeScript for every built-in schema', () => {
    const schemas = BUILT_IN_DOMAINS.flatMap((d) => d.schemas);
    const sources = Object.fromEntries(schemas.map((s) => [`${s.name}.ts`, generateTypes(s)]));
    const found = diagnostics(sources);
    expect(found).toEqual(Object.fromEntries(schemas.map((s) => [`${s.name}.ts`, []])));
    // Type-checks every schema with the TypeScript compiler: seconds on a busy machine.
  }, 30_000);
});
