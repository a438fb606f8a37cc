import type { Readable } from 'node:stream';
import type SharpFactory from 'sharp';
import type { Sharp } from 'sharp';

let loading: Promise<typeof SharpFactory> | undefined;

/** sharp (libvips, about 30 MB resident) loads with the first image operation, not at start: most requests never touch an image. */
export function loadSharp(): Promise<typeof SharpFactory> {
  return (loading ??= import('sharp').then((m) => m.default));
}

/**
 * The sharp pipeline `build` makes, with `source` piped into it. An error of the source destroys the
 * pipeline, also one emitted while sharp was still loading.
 */
export async function pipeIntoSharp<T extends Sharp>(
  source: Readable,
  build: (sharp: typeof SharpFactory) => T,
): Promise<T> {
  const target: { pipeline?: T; early?: Error } = {};
  source.on('error', (err) => (target.pipeline ? target.pipeline.destroy(err) : (target.early ??= err)));
  const pipeline = build(await loadSharp());
  target.pipeline = pipeline;
  if (target.early) pipeline.destroy(target.early);
  source.pipe(pipeline);
  return pipeline;
}
