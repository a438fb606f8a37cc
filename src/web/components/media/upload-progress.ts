/**
 * Upload progress as the bars show it: whole percents from the browser's upload events. A request's
 * body is a little larger than the file (multipart framing), so the event's total wins over the size.
 */
export function progressPercent(loaded: number, total: number | null | undefined, fileSize?: number): number {
  const whole = total && total > 0 ? total : fileSize && fileSize > 0 ? fileSize : 0;
  if (!whole || !Number.isFinite(loaded) || loaded <= 0) return 0;
  return Math.min(100, Math.max(0, Math.floor((loaded / whole) * 100)));
}

export interface ProgressPart {
  /** Bytes of the file. */
  size: number;
  /** 0 to 100. */
  percent: number;
}

/** The progress of several uploads together, weighted by file size (0 to 100). */
export function overallPercent(parts: readonly ProgressPart[]): number {
  const total = parts.reduce((sum, part) => sum + Math.max(0, part.size), 0);
  if (total === 0) return parts.length > 0 && parts.every((part) => part.percent >= 100) ? 100 : 0;
  const done = parts.reduce(
    (sum, part) => sum + (Math.max(0, part.size) * Math.min(100, Math.max(0, part.percent))) / 100,
    0,
  );
  return Math.floor((done / total) * 100);
}
