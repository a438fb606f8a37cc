/**
 * A small render helper on react-dom/client and act(). (@testing-library/react needs
 * @testing-library/dom, which is not installed; this covers what the web tests need.)
 */
import type { ReactNode } from 'react';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';

const mounted: { root: Root; container: HTMLElement }[] = [];

export async function render(ui: ReactNode) {
  const container = document.createElement('div');
  document.body.appendChild(container);
  const root = createRoot(container);
  await act(async () => root.render(ui));
  mounted.push({ root, container });
  return { container, unmount: () => act(() => root.unmount()) };
}

export function cleanupRendered() {
  for (const { root, container } of mounted.splice(0)) {
    act(() => root.unmount());
    container.remove();
  }
  document.body.innerHTML = '';
}

const normalise = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

/** Elements whose own text (children included) equals or contains `text`, innermost first. */
function queryAllByText(text: string | RegExp, root: ParentNode = document.body): HTMLElement[] {
  const matches = (value: string) => (typeof text === 'string' ? value === text : text.test(value));
  const all = Array.from(root.querySelectorAll<HTMLElement>('body *'))
    .concat(Array.from(root.querySelectorAll<HTMLElement>('*')))
    .filter((el, i, arr) => arr.indexOf(el) === i)
    .filter((el) => !['SCRIPT', 'STYLE'].includes(el.tagName));
  const hits = all.filter((el) => matches(normalise(el.textContent)));
  // Keep the innermost matches only.
  return hits.filter((el) => !hits.some((other) => other !== el && el.contains(other)));
}

export const queryByText = (text: string | RegExp, root?: ParentNode) =>
  queryAllByText(text, root)[0] ?? null;

export function getByText(text: string | RegExp, root?: ParentNode): HTMLElement {
  const el = queryByText(text, root);
  if (!el)
    throw new Error(
      `No element with text ${String(text)}. Body: ${normalise(document.body.textContent).slice(0, 500)}`,
    );
  return el;
}

/** Waits (advancing real time) until `fn` stops throwing. */
export async function waitFor<T>(fn: () => T, timeout = 3000): Promise<T> {
  const start = Date.now();
  let lastError: unknown;
  while (Date.now() - start < timeout) {
    try {
      return fn();
    } catch (e) {
      lastError = e;
    }
    await act(async () => new Promise((resolve) => setTimeout(resolve, 20)));
  }
  throw lastError;
}

export const findByText = (text: string | RegExp, root?: ParentNode) => waitFor(() => getByText(text, root));

/** Clicks an element inside act(). */
export async function click(el: Element) {
  await act(async () => {
    (el as HTMLElement).click();
  });
}
