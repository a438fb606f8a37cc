/** A focal point: where the subject of an image is, as fractions of its width and height (0 to 1). */
export interface FocalPoint {
  focusX: number;
  focusY: number;
}

export const CENTRE: FocalPoint = { focusX: 0.5, focusY: 0.5 };

const clamp01 = (value: number) => (Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0.5);
/** Three decimals: a thousandth of the image is finer than any click. */
const round3 = (value: number) => Math.round(value * 1000) / 1000;

/** The focal point a click at (clientX, clientY) sets on an image drawn in `rect`. */
export function focusFromClick(
  clientX: number,
  clientY: number,
  rect: Pick<DOMRect, 'left' | 'top' | 'width' | 'height'>,
): FocalPoint {
  if (rect.width <= 0 || rect.height <= 0) return CENTRE;
  return {
    focusX: round3(clamp01((clientX - rect.left) / rect.width)),
    focusY: round3(clamp01((clientY - rect.top) / rect.height)),
  };
}

/** A stored value's focal point; missing or out-of-range parts fall back to the centre. */
export function focusOf(value: { focusX?: unknown; focusY?: unknown } | null | undefined): FocalPoint {
  const part = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1 ? v : 0.5);
  return { focusX: part(value?.focusX), focusY: part(value?.focusY) };
}

/** CSS object-position that keeps the focal point in view when an image is cropped to a box. */
export const objectPosition = (focus: FocalPoint) =>
  `${round3(focus.focusX * 100)}% ${round3(focus.focusY * 100)}%`;

const STEP = 0.05;
const MOVES: Record<string, [number, number]> = {
  ArrowLeft: [-STEP, 0],
  ArrowRight: [STEP, 0],
  ArrowUp: [0, -STEP],
  ArrowDown: [0, STEP],
};

/** The focal point moved by an arrow key (5 % a press), or null for other keys. */
export function nudgeFocus(focus: FocalPoint, key: string): FocalPoint | null {
  const move = MOVES[key];
  if (!move) return null;
  return { focusX: round3(clamp01(focus.focusX + move[0])), focusY: round3(clamp01(focus.focusY + move[1])) };
}
