const DEFAULT_LABEL_WIDTH = 5;

/** Spec §5: label width 1 to 12 grid columns, default 5; fractions round, out-of-range values clamp. */
export function clampLabelWidth(width?: number | null): number {
  if (width === undefined || width === null || !Number.isFinite(width)) return DEFAULT_LABEL_WIDTH;
  return Math.min(12, Math.max(1, Math.round(width)));
}
