import { landingPage, landingPageData, sectionsField } from '@shared/schemas/blocks-test-data';
import { richTextReader } from '../sanitize/rich-text-reader';
import { buildReferences } from './references';

const readers = { 'rich-text': richTextReader };

describe('buildReferences', () => {
  it('collects the references of blocks, nested blocks and rich text inside blocks', () => {
    const data = landingPageData();
    const grid = data.sections[1] as Record<string, unknown>;
    grid.features = [
      {
        _type: 'feature',
        _key: 'f1',
        name: 'x',
        // Not a field of a feature: never read as one.
        target: { id: 'stray', schemaType: 'blog-post' },
      },
    ];
    (data.sections[0] as Record<string, unknown>).body =
      '<p><a href="/x" data-ref-id="post-3" data-ref-schema-type="blog-post">more</a></p>';
    expect(buildReferences(landingPage, data, readers)).toEqual({
      'post-1': { schemaType: 'blog-post', label: 'First post', fieldKey: 'target' },
      'post-2': { schemaType: 'blog-post', label: 'Second post', fieldKey: 'also' },
      'post-3': { schemaType: 'blog-post', label: 'more', fieldKey: 'body' },
    });
  });

  it("reads each locale's own list of a localised blocks field", () => {
    const schema = { ...landingPage, fields: [{ ...sectionsField, localized: true }] };
    const cta = (id: string) => ({
      _type: 'call-to-action',
      _key: 'c',
      target: { id, schemaType: 'blog-post', label: id },
    });
    expect(
      Object.keys(
        buildReferences(
          schema,
          { sections: [cta('en')], _locales: { 'fr-FR': { sections: [cta('fr')] } } },
          readers,
        ),
      ),
    ).toEqual(['en', 'fr']);
  });
});
