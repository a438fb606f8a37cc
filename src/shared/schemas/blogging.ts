import { defineDomain, defineSchema } from './define';

export const blogPost = defineSchema({
  name: 'blog-post',
  title: 'Blog Post',
  icon: 'article',
  thumbnail: 'coverImage',
  fields: [
    { key: 'name', label: 'Title', type: 'text', required: true, localized: true, locked: true },
    {
      key: 'slug',
      label: 'Slug',
      type: 'name-slug',
      from: 'name',
      required: true,
      localized: true,
      locked: true,
    },
    {
      key: 'body',
      label: 'Body',
      type: 'rich-text',
      required: true,
      labelWidth: 12,
      localized: true,
      locked: true,
    },
    { key: 'excerpt', label: 'Excerpt', type: 'multiline' },
    { key: 'coverImage', label: 'Cover Image', type: 'file', accept: 'image/*', localized: true },
    { key: 'tags', label: 'Tags', type: 'tags' },
    { key: 'author', label: 'Author', type: 'text' },
    { key: 'publishDate', label: 'Publish Date', type: 'date' },
  ],
  topFields: ['name', 'slug', 'author', 'publishDate'],
});

export const blogging = defineDomain({
  name: 'blogging',
  title: 'Blogging',
  schemas: [blogPost],
  landingSchema: 'blog-post',
});
