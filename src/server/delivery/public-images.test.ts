import { landingPage } from '@shared/schemas/blocks-test-data';
import type { SchemaType } from '@shared/schemas/types';
import type { AppContext } from '../context';
import { withPublicImages } from './public-images';

const ctx = { config: { publicUrl: 'https://cms.example', secret: 'test-secret' } } as AppContext;
const image = {
  name: 'cat.png',
  size: 10,
  contentType: 'image/png',
  storageName: 'AbCdEfGhIjKlMnOpQrSt.png',
  publicUrl: '/api/v1/workspaces/acme/files/AbCdEfGhIjKlMnOpQrSt.png',
};
const post = { id: 'p1', schemaType: 'blog-post', label: 'Post', thumbId: 'ZyXwVuTsRqPoNmLkJiHg.png' };

/** The landing page with a top-level image and reference beside its blocks, to compare them with. */
const schema: SchemaType = {
  ...landingPage,
  fields: [
    ...landingPage.fields,
    { key: 'cover', label: 'Cover', type: 'file' },
    { key: 'lead', label: 'Lead', type: 'reference', schemaTypes: ['blog-post'] },
  ],
};
const copy = { workspaceId: 'acme', stage: 'live', schema, id: 'page-1' };

describe('withPublicImages: blocks', () => {
  it('signs the files and reference thumbnails inside blocks as it signs top-level ones', () => {
    const data = {
      cover: image,
      lead: post,
      sections: [
        { _type: 'hero', _key: 'h', image },
        {
          _type: 'feature-grid',
          _key: 'g',
          features: [{ _type: 'feature', _key: 'f', icon: image }],
        },
        { _type: 'call-to-action', _key: 'c', target: post, also: [post] },
      ],
    };
    const out = withPublicImages(ctx, copy, data) as typeof data & { lead: { thumbnailUrl?: string } };
    expect(out.cover).toEqual({
      ...image,
      // The members' URL would answer 401 to a website: the file's own signed link, without a size.
      publicUrl: expect.stringMatching(
        /^https:\/\/cms\.example\/fun\/emailImage\/\?id=AbCdEfGhIjKlMnOpQrSt\.png&__marquee_workspace=acme&stage=live&schema=landing-page&item=page-1&sig=/,
      ),
      thumbnailUrl: expect.stringMatching(/^https:\/\/cms\.example\/.*w=400/),
      imageUrl: expect.stringMatching(/^https:\/\/cms\.example\/.*w=1200/),
    });
    expect(out.lead.thumbnailUrl).toMatch(/^https:\/\/cms\.example\/.*w=400/);
    const [hero, grid, cta] = out.sections as Record<string, unknown>[];
    expect(hero).toEqual({ _type: 'hero', _key: 'h', image: out.cover });
    expect(grid.features).toEqual([{ _type: 'feature', _key: 'f', icon: out.cover }]);
    expect(cta).toEqual({ _type: 'call-to-action', _key: 'c', target: out.lead, also: [out.lead] });
    // The stored data is left as it was; blocks with nothing to sign stay the same objects.
    expect(data.sections[0]).toEqual({ _type: 'hero', _key: 'h', image });
    expect((out.sections as unknown[])[2]).not.toBe(data.sections[2]);
    const plain = [
      { _type: 'hero', _key: 'h', title: 'Hi' },
      { _type: 'gone', _key: 'x', image },
      ...data.sections,
    ];
    const signed = (withPublicImages(ctx, copy, { sections: plain }) as { sections: unknown[] }).sections;
    expect(signed[0]).toBe(plain[0]);
    expect(signed[1]).toBe(plain[1]);
    expect(signed[2]).toEqual(hero);
  });
});
