import { COUNTRY_OPTIONS } from '../geo/countries';
import { defineDomain, defineSchema } from './define';

export const IMAGE_SET_SCHEMA = 'marquee-assets-image-set';

export const imageSet = defineSchema({
  name: IMAGE_SET_SCHEMA,
  title: 'Image Set',
  icon: 'photo',
  thumbnail: 'masterImage',
  fields: [
    {
      key: 'masterImage',
      label: 'Master Image',
      type: 'file',
      accept: 'image/*',
      required: true,
      locked: true,
    },
    { key: 'name', label: 'Name', type: 'text', required: true, locked: true },
    { key: 'altText', label: 'Alt Text', type: 'text', required: true },
    { key: 'description', label: 'Description', type: 'multiline' },
    { key: 'labels', label: 'Labels', type: 'tags' },
    {
      key: 'locations',
      label: 'Locations',
      type: 'select',
      multiple: true,
      options: COUNTRY_OPTIONS,
      locked: true,
    },
    { key: 'startTime', label: 'Start Time', type: 'datetime', locked: true },
    { key: 'endTime', label: 'End Time', type: 'datetime', locked: true },
  ],
  topFields: ['masterImage', 'name', 'altText'],
});

export const assets = defineDomain({
  name: 'assets',
  title: 'Assets',
  schemas: [imageSet],
  landingSchema: IMAGE_SET_SCHEMA,
});
