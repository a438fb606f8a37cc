const FOCUSABLE = 'input:not([type="hidden"]), textarea, select, [contenteditable="true"]';

/** The row of field `key` that belongs to `scope` itself (a block's card, or the form), not to a block inside it. */
function ownRow(scope: Element, key: string): HTMLElement | null {
  const block = scope.matches('[data-block]') ? scope : null;
  const rows = scope.querySelectorAll<HTMLElement>(`[data-field="${CSS.escape(key)}"]`);
  return [...rows].find((row) => (row.parentElement?.closest('[data-block]') ?? null) === block) ?? null;
}

/** The card of block `index` in a blocks field's row: its own list's, not a nested one's. */
function blockCard(row: Element, index: string): HTMLElement | null {
  const list = row.querySelector('[data-blocks]');
  return list?.querySelector<HTMLElement>(`:scope > [data-block="${CSS.escape(index)}"]`) ?? null;
}

/**
 * The element of the item form that shows a field path (`title`, `sections.2`, `sections.2.title`): the
 * deepest row or block card the path reaches.
 */
export function formElementOf(root: Element, path: string): HTMLElement | null {
  let found: HTMLElement | null = null;
  let scope: Element = root;
  for (const part of path.split('.')) {
    const next: HTMLElement | null =
      /^\d+$/.test(part) && found ? blockCard(found, part) : ownRow(scope, part);
    if (!next) break;
    found = next;
    if (next.matches('[data-block]')) scope = next;
  }
  return found;
}

/**
 * Focuses the field a page's element stands for and scrolls it into view: a field's input (its first),
 * a block's card; a read-only field's row. Answers whether the path named anything in the form.
 */
export function focusFormPath(root: Element, path: string): boolean {
  const element = formElementOf(root, path);
  if (!element) return false;
  const isBlock = element.matches('[data-block]');
  const input = isBlock ? null : element.querySelector<HTMLElement>(FOCUSABLE);
  const target = input ?? element;
  if (!input && !target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.scrollIntoView?.({ block: 'center', behavior: 'smooth' });
  target.focus({ preventScroll: true });
  return true;
}
