/** Spec §2 Quick view: a modal widens from 75 to 100 percent, adding 5 percent per nesting level. */
const QUICK_VIEW_BASE_WIDTH = 75;
const QUICK_VIEW_STEP = 5;

/** Width in percent of a quick view panel at a nesting level (0 for a panel opened from a page). */
export function quickViewWidth(level: number): number {
  const steps = Math.max(0, Math.floor(Number.isFinite(level) ? level : 0));
  return Math.min(100, QUICK_VIEW_BASE_WIDTH + QUICK_VIEW_STEP * steps);
}

/** Spec §2: the message when someone tries to close a panel whose form is being edited. */
export const CLOSE_WHILE_EDITING_MESSAGE = 'Save or cancel to be able to close.';
