import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
/** Helpers for the item form's component tests (on the app's render helper; see src/web/test/render). */
import type { ReactNode } from 'react';
import { act } from 'react';
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications, notifications } from '@mantine/notifications';
import { render } from '@web/test/render';
import { theme } from '../../app/theme';

// Mantine's autosize textarea listens to document.fonts, which jsdom lacks.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    configurable: true,
    value: { addEventListener: () => {}, removeEventListener: () => {}, ready: Promise.resolve() },
  });
}

// CodeMirror measures text with Range rectangles, which jsdom lacks.
if (!Range.prototype.getClientRects) {
  const empty = { length: 0, item: () => null, [Symbol.iterator]: [][Symbol.iterator] };
  Range.prototype.getClientRects = () => empty as unknown as DOMRectList;
  Range.prototype.getBoundingClientRect = () => new DOMRect(0, 0, 0, 0);
}

export async function renderUi(ui: ReactNode) {
  // Notifications live in a global store: start every test without the last one's.
  await act(async () => notifications.clean());
  // Field editors may query the server (the code field's Run); nothing here answers, so no retries.
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MantineProvider theme={theme}>
        <ModalsProvider>
          <Notifications />
          {ui}
        </ModalsProvider>
      </MantineProvider>
    </QueryClientProvider>,
  );
}

/** The element whose aria-label is `label` (inputs carry their field's label). */
export function byLabel<T extends HTMLElement = HTMLInputElement>(label: string): T {
  const found = document.querySelector<T>(`[aria-label="${CSS.escape(label)}"]`);
  if (!found) throw new Error(`No element labelled "${label}"`);
  return found;
}

export const queryByLabel = (label: string) =>
  document.querySelector<HTMLElement>(`[aria-label="${CSS.escape(label)}"]`);

/** Focuses an input or textarea and sets its value the way React notices, then fires input and change. */
export async function changeValue(element: HTMLInputElement | HTMLTextAreaElement, value: string) {
  if (document.activeElement !== element) await act(async () => element.focus());
  await act(async () => {
    const prototype =
      element instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
    Object.getOwnPropertyDescriptor(prototype, 'value')!.set!.call(element, value);
    element.dispatchEvent(new Event('input', { bubbles: true }));
    element.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

export async function keyDown(element: Element, key: string) {
  await act(async () => {
    element.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
  });
}

/** The button whose text is exactly `text`. */
export function button(text: string): HTMLButtonElement {
  const found = Array.from(document.querySelectorAll('button')).find(
    (candidate) => candidate.textContent?.trim() === text,
  );
  if (!found) throw new Error(`No button "${text}"`);
  return found;
}

export const queryButton = (text: string) =>
  Array.from(document.querySelectorAll('button')).find(
    (candidate) => candidate.textContent?.trim() === text,
  ) ?? null;

/** Opens a Mantine select by clicking its input and picks the option with this text. */
export async function pickOption(input: HTMLInputElement, text: string) {
  await act(async () => {
    input.click();
  });
  // The input's own list when it names one: another select's options may be in the page too.
  const list = document.getElementById(input.getAttribute('aria-controls') ?? '') ?? document;
  const option = Array.from(list.querySelectorAll<HTMLElement>('[role="option"]')).find(
    (candidate) => candidate.textContent?.trim() === text,
  );
  if (!option)
    throw new Error(
      `No option "${text}" among ${Array.from(document.querySelectorAll('[role="option"]'))
        .map((o) => o.textContent)
        .join(', ')}`,
    );
  await act(async () => {
    option.click();
  });
}

/** The page's visible text: element text without style sheets. */
export function bodyText(): string {
  const clone = document.body.cloneNode(true) as HTMLElement;
  clone.querySelectorAll('style, script').forEach((element) => element.remove());
  return clone.textContent ?? '';
}
