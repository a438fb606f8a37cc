import type { Readable } from 'node:stream';
import { pipeIntoSharp } from '../files/load-sharp';
import { hammingDistance, matchKind, type MatchKind } from '@shared/media/perceptual-hash';
import { fileUrl } from '@shared/media/urls';
import type { SanityResult } from '@shared/media/contract';
import type { AppContext } from '../context';
import * as filesRepo from '../files/repository';
import { readExif } from './exif';

const NOT_ANALYSED_SAFE_SEARCH =
  'Safe search not analysed: no image analysis service is configured (set GOOGLE_VISION_API_KEY)';
const LOCAL_MATCHING_ONLY =
  "Matching images on the public internet not checked: compared with this workspace's own images only";

interface ImageMatch {
  storageName: string;
  name: string;
  distance: number;
  kind: MatchKind;
}

/** A place where a matching file is used (an item), to report instead of the bare file. */
export interface FileUsage {
  url: string;
  title: string;
}
export type FindUsages = (workspaceId: string, storageNames: string[]) => Promise<Map<string, FileUsage[]>>;

/** The workspace's other images whose dHash is within the near-duplicate distance, closest first. */
async function findMatches(ctx: AppContext, row: filesRepo.FileRow, limit = 20): Promise<ImageMatch[]> {
  if (!row.dhash) return [];
  const others = await filesRepo.listHashesExcept(ctx.db, row.workspaceId, row.storageName);
  return others
    .flatMap((other) => {
      const distance = hammingDistance(row.dhash as string, other.dhash as string);
      const kind = matchKind(distance);
      return kind ? [{ storageName: other.storageName, name: other.name, distance, kind }] : [];
    })
    .sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name))
    .slice(0, limit);
}

/** Tags from the file's own metadata: format, orientation, size class, transparency, animation, camera. */
async function metadataLabels(source: Readable): Promise<{ best: string; tags: string[] }> {
  const reader = await pipeIntoSharp(source, (sharp) => sharp({ limitInputPixels: false }));
  const meta = await reader.metadata();
  source.destroy();
  const width = meta.width ?? 0;
  const height = meta.pageHeight ?? meta.height ?? 0;
  const rotated = (meta.orientation ?? 1) >= 5;
  const [w, h] = rotated ? [height, width] : [width, height];
  const format = (meta.format ?? 'image').toLowerCase();
  const shape = w === h ? 'square' : w > h ? 'landscape' : 'portrait';
  const megapixels = (w * h) / 1_000_000;
  const sizeClass =
    megapixels >= 8 ? 'high resolution' : megapixels >= 1 ? 'medium resolution' : 'low resolution';
  const exif = readExif(meta.exif);
  const camera =
    exif.make && exif.model?.startsWith(exif.make)
      ? exif.model
      : [exif.make, exif.model].filter(Boolean).join(' ');
  const tags = [
    format,
    shape,
    `${w}x${h}`,
    sizeClass,
    ...(meta.hasAlpha ? ['transparent'] : []),
    ...((meta.pages ?? 1) > 1 ? ['animated'] : []),
    ...(camera ? [`camera: ${camera}`] : []),
    ...(exif.dateTimeOriginal ? [`taken: ${exif.dateTimeOriginal}`] : []),
    ...(exif.software ? [`software: ${exif.software}`] : []),
  ];
  return { best: `${shape} ${format} image`, tags };
}

/**
 * The offline analyser (DESIGN §6): duplicates and near-duplicates among the workspace's own images as
 * matching pages, labels from metadata, and safe search left UNKNOWN with an issue saying why.
 */
export async function analyseLocally(
  ctx: AppContext,
  row: filesRepo.FileRow,
  source: Readable,
  options: { findUsages?: FindUsages; issues?: string[] } = {},
): Promise<SanityResult> {
  const [matches, labels] = await Promise.all([findMatches(ctx, row), metadataLabels(source)]);
  const usages =
    options.findUsages && matches.length > 0
      ? await options.findUsages(
          row.workspaceId,
          matches.map((m) => m.storageName),
        )
      : new Map<string, FileUsage[]>();
  const pages = matches.flatMap((match) => {
    const what =
      match.kind === 'duplicate' ? 'Duplicate' : `Near-duplicate (${match.distance} of 64 bits differ)`;
    const used = usages.get(match.storageName) ?? [];
    if (used.length > 0) return used.map((u) => ({ url: u.url, pageTitle: `${what}: ${u.title}` }));
    return [{ url: fileUrl(row.workspaceId, match.storageName), pageTitle: `${what}: file "${match.name}"` }];
  });
  return {
    _issues: [...(options.issues ?? []), LOCAL_MATCHING_ONLY],
    webDetection: {
      pagesWithMatchingImages: pages,
      bestGuessLabels: [{ label: labels.best }],
      webEntities: labels.tags.map((description) => ({ description })),
    },
    safeSearchDetection: {
      adult: 'UNKNOWN',
      spoof: 'UNKNOWN',
      medical: 'UNKNOWN',
      violence: 'UNKNOWN',
      racy: 'UNKNOWN',
      _issues: [NOT_ANALYSED_SAFE_SEARCH],
    },
    analysedBy: 'local',
    analysedAt: new Date().toISOString(),
  };
}
