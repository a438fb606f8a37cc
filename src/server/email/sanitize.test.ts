import type { SchemaType } from '@shared/schemas/types';
import type { AppContext } from '../context';
import type { SchemaScope } from '../items/scope';
import { prepareEmailFieldsOnSave } from './sanitize';

const ctx = { config: { publicUrl: 'https://cms.example' } } as AppContext;
/** A newsletter whose blocks may hold an email template. */
const schema: SchemaType = {
  name: 'newsletter',
  title: 'Newsletter',
  pluralTitle: 'Newsletters',
  icon: 'mail',
  topFields: [],
  fields: [{ key: 'parts', label: 'Parts', type: 'blocks', blockTypes: ['part'] }],
  blockTypes: {
    part: {
      name: 'part',
      title: 'Part',
      fields: [{ key: 'template', label: 'Template', type: 'email-template' }],
    },
  },
};
const scope = { schema } as SchemaScope;

describe('email templates inside blocks', () => {
  it('are sanitised and get their combined markup, like top-level ones', async () => {
    const template = { 'gjs-nl-html': '<p onclick="x()">Hi<script>alert(1)</script></p>', 'gjs-nl-css': '' };
    const out = (await prepareEmailFieldsOnSave(
      ctx,
      scope,
      { parts: [{ _type: 'part', _key: 'p', template }] },
      undefined,
    )) as {
      parts: { template: Record<string, string> }[];
    };
    const prepared = out.parts[0].template;
    expect(prepared['gjs-nl-html']).toBe('<p>Hi</p>');
    expect(prepared.combinedMarkup).toContain('<p>Hi</p>');
    expect(prepared.combinedMarkup).not.toContain('script');
    const without = { parts: [{ _type: 'part', _key: 'p' }] };
    expect(await prepareEmailFieldsOnSave(ctx, scope, without, undefined)).toBe(without);
  });
});
