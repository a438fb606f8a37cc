import { z } from 'zod';
import { isCountryCode } from '../geo/countries';
import { isKnownTimezone } from '../time/zones';

/**
 * Zod shapes of the structured field values of spec §3 (reference, file, address, criteria tree, email
 * template, service connection, social interests). Every one is nullable at the item level, not here.
 */

/** A strict object whose unknown-key error names the keys and where they were found. */
export function strictObject<Shape extends z.ZodRawShape>(shape: Shape, where: string) {
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code !== 'unrecognized_keys') return undefined;
      const keys = issue.keys.map((key) => `"${key}"`).join(', ');
      return `Unknown field${issue.keys.length > 1 ? 's' : ''} ${keys} in ${where}`;
    },
  });
}

export const timezoneSchema = z.string().refine(isKnownTimezone, { error: 'Unknown time zone' });

export const countryCodeSchema = z.string().refine(isCountryCode, { error: 'Unknown country code' });

export function referenceSchema(schemaTypes: readonly string[], where = 'reference') {
  return strictObject(
    {
      id: z.string().min(1),
      schemaType:
        schemaTypes.length > 0
          ? z.string().refine((type) => schemaTypes.includes(type), {
              error: `Reference must be to ${schemaTypes.join(' or ')}`,
            })
          : z.string(),
      label: z.string().optional(),
      thumbId: z.string().optional(),
      altText: z.string().optional(),
    },
    where,
  );
}

const unit = z.number().min(0).max(1);

export const fileValueSchema = strictObject(
  {
    name: z.string(),
    size: z.number().min(0),
    contentType: z.string(),
    storageName: z.string(),
    publicUrl: z.string(),
    md5Hash: z.string().optional(),
    focusX: unit.optional(),
    focusY: unit.optional(),
    sanityResults: z.unknown().optional(),
  },
  'file',
);

const geohashShape = Object.fromEntries(
  Array.from({ length: 12 }, (_, index) => [
    `p_${index + 1}`,
    z
      .string()
      .max(index + 1)
      .optional(),
  ]),
);

const text = z.string().optional();
const latitudeRange = { error: 'Latitude must be between -90 and 90' };
const longitudeRange = { error: 'Longitude must be between -180 and 180' };

export const addressSchema = strictObject(
  {
    rawAddress: text,
    streetNumber: text,
    streetAddress: text,
    unit: text,
    city: text,
    state: text,
    county: text,
    neighborhood: text,
    country: text,
    postal_code: text,
    latitude: z.number().min(-90, latitudeRange).max(90, latitudeRange).optional(),
    longitude: z.number().min(-180, longitudeRange).max(180, longitudeRange).optional(),
    google_place: z.unknown().optional(),
    geohash: strictObject(geohashShape, 'geohash').optional(),
    geohashes: z.array(z.string()).optional(),
  },
  'address',
);

export const emailTemplateSchema = strictObject(
  {
    'gjs-nl-html': text,
    'gjs-nl-css': text,
    'gjs-nl-styles': z.unknown().optional(),
    'gjs-nl-components': z.unknown().optional(),
    'gjs-nl-assets': z.unknown().optional(),
    combinedMarkup: text,
  },
  'email template',
);

export const serviceConnectionSchema = strictObject(
  {
    provider: z.string(),
    encTokens: z.unknown().optional(),
    profile: z.unknown().optional(),
    serviceStatus: z.string().optional(),
    serviceDetails: z.record(z.string(), z.unknown()).optional(),
  },
  'service connection',
);

export const socialInterestsSchema = z.array(
  strictObject(
    { id: z.union([z.string(), z.number()]), name: z.string(), type: z.string().optional() },
    'social interest',
  ),
);

/** A criteria group (label, predicate, story, children) or a leaf typed attribute, audience or event. */
export type CriteriaNodeValue =
  | { label: string; predicate: 'and' | 'or' | 'not'; story?: string; children: CriteriaNodeValue[] }
  | { type: 'attribute' | 'audience' | 'event'; [detail: string]: unknown };

/**
 * The structure of the criteria tree only; leaf details and the depth limit belong to
 * `src/shared/criteria`.
 */
export const criteriaNodeSchema: z.ZodType<CriteriaNodeValue> = z.lazy(() =>
  z.union([
    strictObject(
      {
        label: z.string(),
        predicate: z.enum(['and', 'or', 'not']),
        story: z.string().optional(),
        children: z.array(criteriaNodeSchema),
      },
      'criteria group',
    ),
    z.looseObject({ type: z.enum(['attribute', 'audience', 'event']) }),
  ]),
);
