import { expect, type APIRequestContext } from '@playwright/test';
import { SAME_ORIGIN } from './fixtures';

/**
 * A "Landing page" schema in blogging built from hero and quote blocks, applied through the API:
 * with `localizedTitle` its title is translated per locale, with `previewUrls` it opens in the
 * preview pane.
 */
export async function seedLandingPages(
  request: APIRequestContext,
  ws: string,
  { previewUrls, localizedTitle = false }: { previewUrls?: string[]; localizedTitle?: boolean } = {},
) {
  const { version } = await (await request.get(`/api/v1/workspaces/${ws}/content-model`)).json();
  const text = (key: string, label: string) => ({ key, label, type: 'text' });
  const res = await request.post(`/api/v1/workspaces/${ws}/content-model/apply`, {
    headers: SAME_ORIGIN,
    data: {
      baseVersion: version,
      ops: [
        {
          op: 'addBlockType',
          blockType: {
            name: 'hero',
            title: 'Hero',
            fields: [text('title', 'Title'), text('tagline', 'Tagline')],
          },
        },
        { op: 'addBlockType', blockType: { name: 'quote', title: 'Quote', fields: [text('text', 'Text')] } },
        {
          op: 'addSchema',
          domain: 'blogging',
          schema: {
            name: 'landing-page',
            title: 'Landing page',
            pluralTitle: 'Landing pages',
            icon: 'layout',
            topFields: ['title'],
            ...(previewUrls ? { previewUrls } : {}),
            fields: [
              { ...text('title', 'Title'), required: true, ...(localizedTitle ? { localized: true } : {}) },
              { key: 'slug', label: 'Slug', type: 'name-slug', from: 'title' },
              { key: 'sections', label: 'Sections', type: 'blocks', blockTypes: ['hero', 'quote'] },
            ],
          },
        },
      ],
    },
  });
  expect(res.status(), await res.text()).toBeLessThan(300);
}
