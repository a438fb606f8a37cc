import type { SanityResult } from '@shared/media/contract';
import type { AppContext } from '../context';
import type { WorkspaceAccess } from '../workspaces/access';
import * as filesRepo from '../files/repository';
import { analysisCopy } from '../files/images';
import { openFile, requireFile } from '../files/service';
import { createGoogleVision, VisionError, type GoogleVision } from '../providers/google-vision';
import { analyseLocally, type FindUsages } from './local-analyser';

/** Longest side of the copy sent to Vision: enough for web detection, bounded upload. */
const VISION_MAX_SIDE = 1600;

const visions = new WeakMap<AppContext, GoogleVision | null>();

/** The Vision adapter when GOOGLE_VISION_API_KEY is set, otherwise null (the local analyser serves). */
function visionOf(ctx: AppContext): GoogleVision | null {
  if (!visions.has(ctx)) {
    const { googleVisionApiKey: apiKey, googleVisionUrl: baseUrl } = ctx.config;
    visions.set(ctx, apiKey ? createGoogleVision({ apiKey, baseUrl }) : null);
  }
  return visions.get(ctx) ?? null;
}

/**
 * Spec §7 /sanity/: analyses a stored image with Google Cloud Vision when configured, else locally, and
 * keeps the answer in the file record's sanityResults. A Vision failure falls back to the local
 * analyser with an `_issues` entry naming the failure.
 */
export async function analyseImage(
  ctx: AppContext,
  access: WorkspaceAccess,
  storageName: string,
  options: { findUsages?: FindUsages } = {},
): Promise<SanityResult> {
  const row = await requireFile(ctx, access.workspace.id, storageName);
  const vision = visionOf(ctx);
  let result: SanityResult | undefined;
  const issues: string[] = [];
  if (vision) {
    try {
      const copy = await analysisCopy(
        (await openFile(ctx, row)).body,
        VISION_MAX_SIDE,
        ctx.config.imageMaxPixels,
      );
      const annotation = await vision.annotate(copy);
      result = {
        _issues: annotation.issues,
        webDetection: annotation.webDetection,
        safeSearchDetection: { ...annotation.safeSearch, _issues: [] },
        analysedBy: 'google-vision',
        analysedAt: new Date().toISOString(),
      };
    } catch (err) {
      if (!(err instanceof VisionError)) throw err;
      ctx.log.warn({ err, storageName }, 'Google Cloud Vision failed; analysing locally');
      issues.push(`${err.message}. Analysed locally instead.`);
    }
  }
  result ??= await analyseLocally(ctx, row, (await openFile(ctx, row)).body, { ...options, issues });
  await filesRepo.updateFile(ctx.db, row.workspaceId, row.storageName, {
    sanityResults: result as unknown as Record<string, unknown>,
  });
  return result;
}
