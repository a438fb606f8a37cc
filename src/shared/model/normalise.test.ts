import { applyOps } from './apply';
import { invertOps } from './invert';
import { withReferencesFollowing } from './normalise';
import { builtInModelDoc } from './registry';
import type { ModelOp } from './types';

describe('withReferencesFollowing', () => {
  it('takes a removed field out of its top fields and thumbnail first, so the removal applies and reverts', () => {
    const doc = builtInModelDoc();
    const ops = withReferencesFollowing(doc, [{ op: 'removeField', schema: 'event', key: 'coverImage' }]);
    expect(ops).toEqual([
      { op: 'updateSchema', schema: 'event', patch: { thumbnail: null } },
      { op: 'removeField', schema: 'event', key: 'coverImage' },
    ]);
    const authorless = withReferencesFollowing(doc, [
      { op: 'removeField', schema: 'blog-post', key: 'author' },
    ]);
    expect(authorless[0]).toEqual({
      op: 'updateSchema',
      schema: 'blog-post',
      patch: { topFields: ['name', 'slug', 'publishDate'] },
    });
    const after = applyOps(doc, authorless);
    expect(applyOps(after, invertOps(doc, authorless))).toEqual(JSON.parse(JSON.stringify(doc)));
  });

  it("first stops a removed schema being its domain's landing schema", () => {
    const doc = builtInModelDoc();
    const ops = withReferencesFollowing(doc, [{ op: 'removeSchema', schema: 'client-task' }]);
    expect(ops[0]).toEqual({ op: 'updateDomain', domain: 'admin', patch: { landingSchema: null } });
    expect(applyOps(doc, ops).domains.find((d) => d.name === 'admin')).not.toHaveProperty('landingSchema');
  });

  it('leaves other change sets, and ones that do not apply, as they are', () => {
    const doc = builtInModelDoc();
    const ops: ModelOp[] = [
      { op: 'renameField', schema: 'blog-post', from: 'author', to: 'writer' },
      { op: 'removeField', schema: 'ghost', key: 'x' },
      { op: 'removeField', schema: 'blog-post', key: 'writer' },
    ];
    expect(withReferencesFollowing(doc, ops)).toEqual(ops);
  });
});
