import { z } from 'zod';
import { LIKELIHOODS } from './safe-search';

/**
 * The HTTP contract of uploads, thumbnails, image analysis and HTML sanitising, shared by the
 * server routes and the web fetchers.
 */

/** A stored file's name: random letters and digits, a dot and the extension of the sniffed type. */
export const StorageName = z
  .string()
  .regex(/^[A-Za-z0-9]{16,40}\.(jpg|png|gif|webp|avif|tif)$/, { error: 'File not found' })
  .describe('Storage name of an uploaded file, e.g. 3kq0…Zr.png');

const unit = z.number().min(0).max(1);

const Likelihood = z.enum(LIKELIHOODS as [string, ...string[]]);

export const SanityResult = z
  .object({
    _issues: z.array(z.string()).describe('What could not be checked, and why'),
    webDetection: z.object({
      pagesWithMatchingImages: z.array(z.object({ url: z.string(), pageTitle: z.string() })),
      bestGuessLabels: z.array(z.object({ label: z.string() })),
      webEntities: z.array(z.object({ description: z.string(), score: z.number().optional() })),
    }),
    safeSearchDetection: z.object({
      adult: Likelihood,
      spoof: Likelihood,
      medical: Likelihood,
      violence: Likelihood,
      racy: Likelihood,
      _issues: z.array(z.string()),
    }),
    analysedBy: z.enum(['google-vision', 'local']).describe('Which analyser answered'),
    analysedAt: z.string().describe('ISO time of the analysis'),
  })
  .describe('Spec §7 /sanity/ answer');
export type SanityResult = z.infer<typeof SanityResult>;

/** Spec §3 File field value: exactly what a file field stores, so the upload answer can be saved as is. */
export const FileRecord = z.object({
  name: z.string().describe('Original file name'),
  size: z.number().int().describe('Bytes'),
  contentType: z.string().describe('Type sniffed from the bytes, e.g. image/png'),
  storageName: z.string(),
  publicUrl: z
    .string()
    .describe('Where members GET the content: /api/v1/workspaces/{id}/files/{storageName}'),
  md5Hash: z.string().describe('Base64 MD5 of the content'),
  focusX: unit,
  focusY: unit,
  sanityResults: SanityResult.nullable().optional(),
});
export type FileRecord = z.infer<typeof FileRecord>;

export const FocusBody = z.object({ focusX: unit, focusY: unit }).strict();

/** Thumbnail sizes outside this range are refused. */
const RESIZE_MIN = 16;
const RESIZE_MAX = 2400;

const dimension = z.coerce
  .number({ error: 'w and h must be whole numbers of pixels' })
  .int({ error: 'w and h must be whole numbers of pixels' })
  .min(RESIZE_MIN, { error: `w and h must be between ${RESIZE_MIN} and ${RESIZE_MAX}` })
  .max(RESIZE_MAX, { error: `w and h must be between ${RESIZE_MIN} and ${RESIZE_MAX}` });

/** How an image is fitted into w × h when both are given (sharp's fits); `inside` when not asked. */
const IMAGE_FITS = ['inside', 'cover', 'contain', 'fill', 'outside'] as const;
export type ImageFit = (typeof IMAGE_FITS)[number];
/** Encodings an image link may ask for with `format=`; without it the Accept header chooses. */
const IMAGE_FORMATS = ['webp', 'avif', 'jpeg', 'png'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];
const QUALITY_MIN = 1;
const QUALITY_MAX = 100;
const QUALITY_BOUNDS = { error: `q must be a whole number from ${QUALITY_MIN} to ${QUALITY_MAX}` };

/**
 * What a signed image link may ask for beside the image it names: its size (never enlarged), how it is
 * fitted, its encoding and its quality (JPEG, WebP and AVIF). Each variant is made once and kept.
 */
export const ImageVariantQuery = z.object({
  w: dimension.optional().describe(`Width in pixels, ${RESIZE_MIN} to ${RESIZE_MAX}`),
  h: dimension.optional().describe(`Height in pixels, ${RESIZE_MIN} to ${RESIZE_MAX}`),
  fit: z
    .enum(IMAGE_FITS, { error: `fit must be one of ${IMAGE_FITS.join(', ')}` })
    .optional()
    .describe('How the image fills w × h when both are given; inside (the default) keeps it whole'),
  format: z
    .enum(IMAGE_FORMATS, { error: `format must be one of ${IMAGE_FORMATS.join(', ')}` })
    .optional()
    .describe('The encoding; without it WebP or AVIF when accepted, else the original family'),
  q: z.coerce
    .number(QUALITY_BOUNDS)
    .int(QUALITY_BOUNDS)
    .min(QUALITY_MIN, QUALITY_BOUNDS)
    .max(QUALITY_MAX, QUALITY_BOUNDS)
    .optional()
    .describe('Quality of a JPEG, WebP or AVIF encoding (PNG is lossless)'),
});
export type ImageVariant = z.infer<typeof ImageVariantQuery>;

export const WORKSPACE_QUERY_PARAM = '__marquee_workspace';

const workspaceParam = z
  .string({ error: `${WORKSPACE_QUERY_PARAM} is required` })
  .min(1, { error: `${WORKSPACE_QUERY_PARAM} is required` })
  .max(63);

export const ImageResizeQuery = z
  .object({
    id: z.string({ error: 'id is required' }).min(1, { error: 'id is required' }).max(100),
    w: dimension.optional(),
    h: dimension.optional(),
    [WORKSPACE_QUERY_PARAM]: workspaceParam,
  })
  .refine((q) => q.w !== undefined || q.h !== undefined, { error: 'w or h is required' });

export const SanityQuery = z.object({
  id: z.string({ error: 'id is required' }).min(1, { error: 'id is required' }).max(100),
  [WORKSPACE_QUERY_PARAM]: workspaceParam,
});

export const WorkspaceQuery = z.object({ [WORKSPACE_QUERY_PARAM]: workspaceParam });

export const SanitizeHtmlBody = z.object({
  schemaType: z
    .string({ error: 'schemaType is required' })
    .min(1, { error: 'schemaType is required' })
    .max(100),
  field: z.string({ error: 'field is required' }).min(1, { error: 'field is required' }).max(200),
  html: z
    .string({ error: 'html must be a string' })
    .max(2_000_000, { error: 'html is too long (2,000,000 characters at most)' }),
});
export const SanitizeHtmlAnswer = z.object({ sanitized: z.string() });
