import { blogPost } from '@shared/schemas/blogging';
import { landingPage, sectionsField } from '@shared/schemas/blocks-test-data';
import { sanitizeItemData, sanitizeRichText } from './rich-text';

const IMG = '/api/v1/workspaces/acme/files/AbCdEfGhIjKlMnOpQrStUvWx.png';

describe('sanitizeItemData for the item-save path', () => {
  it('sanitises rich-text fields and leaves every other value as it is', () => {
    const data = {
      name: '<b>Title</b>',
      body: '<p onclick="x()">Hi<script>alert(1)</script></p>',
      tags: ['<i>a</i>'],
    };
    expect(sanitizeItemData(blogPost, data, { workspaceId: 'acme' })).toEqual({
      name: '<b>Title</b>',
      body: '<p>Hi</p>',
      tags: ['<i>a</i>'],
    });
  });

  it('sanitises rich-text columns inside table rows', () => {
    const schema = {
      fields: [
        {
          key: 'rows',
          label: 'Rows',
          type: 'table' as const,
          columns: [{ key: 'cell', label: 'Cell', type: 'rich-text' as const }],
        },
      ],
    };
    expect(sanitizeItemData(schema, { rows: [{ cell: '<img src=x onerror=alert(1)>ok' }, null] })).toEqual({
      rows: [{ cell: 'ok' }, null],
    });
  });

  it('sanitises rich text inside blocks, nested blocks and the locales of a localised blocks field', () => {
    const bad = '<p onclick="x()">Hi<script>alert(1)</script></p>';
    const schema = {
      ...landingPage,
      fields: [...landingPage.fields, { ...sectionsField, key: 'more', localized: true }],
    };
    const hero = (body: string) => ({ _type: 'hero', _key: 'h', body, title: bad });
    const data = {
      sections: [hero(bad), 'junk', { _type: 'gone', _key: 'g', body: bad }],
      more: [{ _type: 'feature-grid', _key: 'g', features: [] }],
      _locales: { 'fr-FR': { more: [hero(bad)] } },
    };
    expect(sanitizeItemData(schema, data)).toEqual({
      // Text fields are not HTML; blocks of a type the model does not have are refused before saving.
      sections: [hero('<p>Hi</p>'), 'junk', { _type: 'gone', _key: 'g', body: bad }],
      more: [{ _type: 'feature-grid', _key: 'g', features: [] }],
      _locales: { 'fr-FR': { more: [hero('<p>Hi</p>')] } },
    });
    const nestedSchema = {
      ...landingPage,
      blockTypes: {
        ...landingPage.blockTypes,
        feature: {
          name: 'feature',
          title: 'Feature',
          fields: [{ key: 'text', label: 'Text', type: 'rich-text' as const }],
        },
      },
    };
    const nested = {
      sections: [
        { _type: 'feature-grid', _key: 'g', features: [{ _type: 'feature', _key: 'f', text: bad }] },
      ],
    };
    expect(sanitizeItemData(nestedSchema, nested)).toEqual({
      sections: [
        { _type: 'feature-grid', _key: 'g', features: [{ _type: 'feature', _key: 'f', text: '<p>Hi</p>' }] },
      ],
    });
  });

  it('keeps images of the workspace only when a workspace is given', () => {
    const html = `<img src="${IMG}" />`;
    expect(sanitizeRichText(blogPost, 'blog-post', 'body', html, { workspaceId: 'acme' })).toBe(html);
    expect(sanitizeRichText(blogPost, 'blog-post', 'body', html, { workspaceId: 'other' })).toBe('');
    expect(sanitizeRichText(blogPost, 'blog-post', 'body', html)).toBe(html);
  });
});
