import { referencesInRichText } from './rich-text-reader';

const IMG = '/api/v1/workspaces/acme/files/AbCdEfGhIjKlMnOpQrStUvWx.png';

describe('referencesInRichText', () => {
  it('lists the data-ref references of inline images and links', () => {
    const html =
      `<p><img src="${IMG}" alt=" Beach at dawn " data-ref-id="set-1" data-ref-schema-type="marquee-assets-image-set" />` +
      '<a href="/acme/blogging/blog-post/p-2" data-ref-id="p-2" data-ref-schema-type="blog-post">see</a>' +
      `<img src="${IMG}" /></p>`;
    expect(referencesInRichText(html)).toEqual([
      {
        id: 'set-1',
        schemaType: 'marquee-assets-image-set',
        label: 'Beach at dawn',
        thumbId: 'AbCdEfGhIjKlMnOpQrStUvWx.png',
      },
      { id: 'p-2', schemaType: 'blog-post', label: 'see' },
    ]);
  });

  it('finds references whatever the case of their attribute names, and none in text without them', () => {
    const html = '<p><A HREF="/x" DATA-REF-ID="p-3" Data-Ref-Schema-Type="blog-post">more</A></p>';
    expect(referencesInRichText(html)).toEqual([{ id: 'p-3', schemaType: 'blog-post', label: 'more' }]);
    expect(referencesInRichText('<p>data-ref is only text here, <a href="/y">a link</a></p>')).toEqual([]);
  });
});
