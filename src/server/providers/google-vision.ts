import { toLikelihood, type Likelihood } from '@shared/media/safe-search';

/**
 * Google Cloud Vision `images:annotate` with WEB_DETECTION and SAFE_SEARCH_DETECTION
 * (https://cloud.google.com/vision/docs/reference/rest/v1/images/annotate), at a configurable base URL.
 */
export interface GoogleVisionConfig {
  apiKey: string;
  baseUrl: string;
  timeoutMs?: number;
}

export interface VisionAnnotation {
  webDetection: {
    pagesWithMatchingImages: { url: string; pageTitle: string }[];
    bestGuessLabels: { label: string }[];
    webEntities: { description: string; score?: number }[];
  };
  safeSearch: Record<'adult' | 'spoof' | 'medical' | 'violence' | 'racy', Likelihood>;
  /** Parts of the request Vision could not do (a per-image error), in its words. */
  issues: string[];
}

export class VisionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VisionError';
  }
}

interface RawWebDetection {
  webEntities?: { description?: string; score?: number }[];
  pagesWithMatchingImages?: { url?: string; pageTitle?: string }[];
  bestGuessLabels?: { label?: string }[];
}

interface RawResponse {
  webDetection?: RawWebDetection;
  safeSearchAnnotation?: Record<string, unknown>;
  error?: { code?: number; message?: string };
}

/** Vision's page titles carry <b> highlights; we keep plain text only. */
const plainText = (html: string) =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .trim();

export function createGoogleVision(config: GoogleVisionConfig) {
  const endpoint = `${config.baseUrl.replace(/\/+$/, '')}/v1/images:annotate`;
  return {
    /** Annotates one image given as bytes; throws VisionError with Vision's message when the call fails. */
    async annotate(image: Buffer): Promise<VisionAnnotation> {
      let response: Response;
      try {
        response = await fetch(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-goog-api-key': config.apiKey },
          body: JSON.stringify({
            requests: [
              {
                image: { content: image.toString('base64') },
                features: [{ type: 'WEB_DETECTION', maxResults: 20 }, { type: 'SAFE_SEARCH_DETECTION' }],
              },
            ],
          }),
          signal: AbortSignal.timeout(config.timeoutMs ?? 20_000),
        });
      } catch (err) {
        throw new VisionError(`Google Cloud Vision could not be reached: ${(err as Error).message}`);
      }
      const body = (await response.json().catch(() => null)) as {
        responses?: RawResponse[];
        error?: { message?: string };
      } | null;
      if (!response.ok) {
        throw new VisionError(
          `Google Cloud Vision answered ${response.status}: ${body?.error?.message ?? response.statusText}`,
        );
      }
      const first = body?.responses?.[0];
      if (!first) throw new VisionError('Google Cloud Vision answered without a result');
      return toAnnotation(first);
    },
  };
}

export type GoogleVision = ReturnType<typeof createGoogleVision>;

function toAnnotation(raw: RawResponse): VisionAnnotation {
  const issues = raw.error ? [`Google Cloud Vision: ${raw.error.message ?? 'error'}`] : [];
  const web = raw.webDetection ?? {};
  const safe = raw.safeSearchAnnotation;
  return {
    webDetection: {
      pagesWithMatchingImages: (web.pagesWithMatchingImages ?? []).flatMap((p) =>
        p.url ? [{ url: p.url, pageTitle: plainText(p.pageTitle ?? '') }] : [],
      ),
      bestGuessLabels: (web.bestGuessLabels ?? []).flatMap((l) => (l.label ? [{ label: l.label }] : [])),
      webEntities: (web.webEntities ?? []).flatMap((e) =>
        e.description
          ? [{ description: e.description, ...(typeof e.score === 'number' ? { score: e.score } : {}) }]
          : [],
      ),
    },
    safeSearch: {
      adult: toLikelihood(safe?.adult),
      spoof: toLikelihood(safe?.spoof),
      medical: toLikelihood(safe?.medical),
      violence: toLikelihood(safe?.violence),
      racy: toLikelihood(safe?.racy),
    },
    issues: [...issues, ...(raw.webDetection ? [] : ['Google Cloud Vision returned no web detection'])],
  };
}
