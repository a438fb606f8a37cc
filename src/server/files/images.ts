import type { Readable } from 'node:stream';
import { loadSharp, pipeIntoSharp } from './load-sharp';
import type { ImageFit, ImageFormat } from '@shared/media/contract';
import { DHASH_HEIGHT, DHASH_WIDTH, dHashOfGrey } from '@shared/media/perceptual-hash';

/** Image types we store: raster formats sharp decodes, with the extension of their storage name. */
export const STORABLE_TYPES: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/tiff': 'tif',
};

export const CONTENT_TYPE_OF_EXTENSION: Record<string, string> = Object.fromEntries(
  Object.entries(STORABLE_TYPES).map(([type, ext]) => [ext, type]),
);

export interface ImageFacts {
  width: number;
  height: number;
  format: string;
  hasAlpha: boolean;
  orientation?: number;
  exif?: Buffer;
}

/**
 * Reads only the header: the decoded size is checked before any pixel is decoded, so a small file that
 * would unpack to gigabytes (a decompression bomb) costs nothing.
 */
export async function readImageFacts(input: string | Buffer): Promise<ImageFacts> {
  const sharp = await loadSharp();
  const meta = await sharp(input, { limitInputPixels: false }).metadata();
  if (!meta.width || !meta.height || !meta.format) throw new Error('Not a readable image');
  return {
    width: meta.width,
    // Animated images report one frame's height; only the first frame is ever decoded here.
    height: meta.pageHeight ?? meta.height,
    format: meta.format,
    hasAlpha: meta.hasAlpha ?? false,
    orientation: meta.orientation,
    exif: meta.exif,
  };
}

/** The dHash of an image (see `@shared/media/perceptual-hash`); EXIF orientation applied first. */
export async function dHashOf(input: string | Buffer, maxPixels: number): Promise<string> {
  const sharp = await loadSharp();
  const { data } = await sharp(input, { limitInputPixels: maxPixels, pages: 1 })
    .rotate()
    .greyscale()
    .resize(DHASH_WIDTH, DHASH_HEIGHT, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return dHashOfGrey(data);
}

export type OutputFormat = ImageFormat;

export const OUTPUT_CONTENT_TYPES: Record<OutputFormat, string> = {
  webp: 'image/webp',
  avif: 'image/avif',
  jpeg: 'image/jpeg',
  png: 'image/png',
};

/**
 * The thumbnail format for an Accept header: WebP when accepted (fast to encode, small), else AVIF,
 * else the original's family (JPEG for photos, PNG for anything that may have transparency).
 */
export function chooseOutputFormat(accept: string | undefined, originalType: string): OutputFormat {
  const accepted = (accept ?? '').toLowerCase();
  if (/\bimage\/webp\b/.test(accepted)) return 'webp';
  if (/\bimage\/avif\b/.test(accepted)) return 'avif';
  return originalType === 'image/jpeg' ? 'jpeg' : 'png';
}

/** The quality each lossy encoding gets when none is asked for. */
export const DEFAULT_QUALITY: Record<OutputFormat, number | undefined> = {
  webp: 80,
  avif: 55,
  jpeg: 82,
  png: undefined,
};

export interface ResizeOptions {
  w?: number;
  h?: number;
  /** How the image fills w × h when both are given; `inside` keeps it whole. */
  fit?: ImageFit;
  /** For JPEG, WebP and AVIF; PNG is lossless. */
  q?: number;
}

/**
 * A variant of an image: fitted into w × h (either may be absent), never enlarged, EXIF orientation
 * applied. `cover` crops around the centre; `contain` pads with transparency (white in a JPEG).
 */
export async function resizeImage(
  source: Readable,
  options: ResizeOptions,
  format: OutputFormat,
  maxPixels: number,
): Promise<Buffer> {
  const quality = options.q ?? DEFAULT_QUALITY[format];
  const encoded = await pipeIntoSharp(source, (sharp) => {
    const pipeline = sharp({ limitInputPixels: maxPixels, pages: 1 })
      .rotate()
      .resize({
        width: options.w,
        height: options.h,
        fit: options.fit ?? 'inside',
        withoutEnlargement: true,
        background: { r: 255, g: 255, b: 255, alpha: 0 },
      });
    return format === 'webp'
      ? pipeline.webp({ quality, effort: 2 })
      : format === 'avif'
        ? pipeline.avif({ quality, effort: 2 })
        : format === 'jpeg'
          ? pipeline.jpeg({ quality, mozjpeg: true })
          : pipeline.png({ compressionLevel: 8 });
  });
  return encoded.toBuffer();
}

/** A JPEG of at most `maxSide` pixels a side, for sending to an analysis service. */
export async function analysisCopy(source: Readable, maxSide: number, maxPixels: number): Promise<Buffer> {
  const pipeline = await pipeIntoSharp(source, (sharp) =>
    sharp({ limitInputPixels: maxPixels, pages: 1 })
      .rotate()
      .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 85 }),
  );
  return pipeline.toBuffer();
}
