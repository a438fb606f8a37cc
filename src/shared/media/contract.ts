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
