import { graphqlSync, validateSchema } from 'graphql';
import { builtInModelDoc, ContentModel } from '@shared/model/registry';
import type { SchemaType } from '@shared/schemas/types';
import { buildDeliverySchema } from './graphql-schema';

const schema = (name: string, fields: SchemaType['fields']): SchemaType => ({
  name,
  title: name,
  pluralTitle: `${name}s`,
  icon: 'file',
  topFields: [],
  fields,
});

/** A model whose names collide once spelled as GraphQL names, with references named twice. */
function awkwardModel() {
  const doc = builtInModelDoc();
  doc.blockTypes.push({
    name: 'hero',
    title: 'Hero',
    fields: [{ key: 'my-title', label: 'T', type: 'text' }],
  });
  const schemas = [
    schema('query', [{ key: 'id', label: 'Id', type: 'text' }]),
    schema('asset', [{ key: '2x', label: 'Two', type: 'text' }]),
    schema('my-page', [
      { key: 'my-field', label: 'A', type: 'text' },
      { key: 'myField', label: 'B', type: 'number' },
      { key: 'twice', label: 'R', type: 'reference-list', schemaTypes: ['query', 'query', 'asset'] },
      { key: 'sections', label: 'S', type: 'blocks', blockTypes: ['hero', 'hero', 'missing'] },
    ]),
    schema('my_page', []),
  ];
  doc.domains = [{ name: 'site', title: 'Site', schemas }];
  return new ContentModel(1, doc);
}

describe('buildDeliverySchema', () => {
  it('gives every type and field a name of its own, whatever the model names', () => {
    const model = awkwardModel();
    const built = buildDeliverySchema(model, model.domains[0].schemas);
    expect(validateSchema(built)).toEqual([]);
    const answer = graphqlSync({
      schema: built,
      source: `{
        query: __type(name: "Query2") { fields { name } }
        asset: __type(name: "Asset2") { fields { name } }
        page: __type(name: "MyPage") { fields { name } }
        refs: __type(name: "MyPageTwiceRef") { possibleTypes { name } }
        other: __type(name: "MyPage2") { name }
      }`,
    });
    const names = (type: string) =>
      (answer.data?.[type] as { fields: { name: string }[] }).fields.map((field) => field.name);
    expect(names('query')).toEqual(['id', 'sys', 'id2']);
    expect(names('asset')).toEqual(['id', 'sys', '_2x']);
    expect(names('page')).toEqual(['id', 'sys', 'myField', 'myField2', 'twice', 'sections']);
    expect(answer.data?.refs).toEqual({ possibleTypes: [{ name: 'Query2' }, { name: 'Asset2' }] });
    expect(answer.data?.other).toEqual({ name: 'MyPage2' });
  });
});
