/** Models for the engine's tests. Test support only. */
import type { SchemaType } from '../schemas/types';
import type { ContentModelDoc } from './types';
import { builtInModelDoc } from './registry';

export const page: SchemaType = {
  name: 'page',
  title: 'Page',
  pluralTitle: 'Pages',
  icon: 'file',
  thumbnail: 'image',
  fields: [
    { key: 'title', label: 'Title', type: 'text' },
    { key: 'slug', label: 'Slug', type: 'name-slug', from: 'title' },
    { key: 'teaser', label: 'Teaser', type: 'multiline', displayIf: { field: 'title', notEmpty: true } },
    { key: 'image', label: 'Image', type: 'file' },
  ],
  topFields: ['title', 'slug'],
};

const note: SchemaType = {
  name: 'note',
  title: 'Note',
  pluralTitle: 'Notes',
  icon: 'note',
  fields: [{ key: 'text', label: 'Text', type: 'multiline' }],
  topFields: ['text'],
};

/** The built-in model plus a "site" domain holding "page" and "note", and a "hero" block type. */
export function sampleModel(): ContentModelDoc {
  const doc = builtInModelDoc();
  doc.domains.push({ name: 'site', title: 'Site', schemas: [structuredClone(page), structuredClone(note)] });
  doc.blockTypes.push({
    name: 'hero',
    title: 'Hero',
    fields: [{ key: 'heading', label: 'Heading', type: 'text' }],
  });
  return doc;
}
