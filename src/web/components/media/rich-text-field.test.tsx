import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { blogPost } from '@shared/schemas/blogging';
import { bodyText, button, byLabel } from '../item-form/test-utils';
import { findByText, waitFor } from '@web/test/render';
import { FakeXhr, renderMedia, stubFetch, ValueHost } from './media-test-utils';
import { RichTextField } from './rich-text-field';
import { fileRecord, itemAnswer, WS } from './test-data';

const field = blogPost.fields.find((f) => f.key === 'body')!;

async function renderBody(initial: string, readOnly = false) {
  const values: string[] = [];
  await renderMedia(
    <ValueHost
      initial={initial as unknown}
      onValue={(value) => values.push(value as string)}
      render={(value, onChange) => (
        <RichTextField
          field={field}
          value={value}
          scope={{}}
          onChange={onChange}
          onPatch={() => {}}
          readOnly={readOnly}
          errors={{}}
          path="body"
          inputId="body-1"
        />
      )}
    />,
  );
  return values;
}

const editorReady = () =>
  waitFor(() => byLabel<HTMLElement>('Body').closest('.ProseMirror') ?? byLabel('Body'), 8000);

beforeEach(() => FakeXhr.install());
afterEach(() => vi.unstubAllGlobals());

describe('RichTextField', () => {
  it('shows the stored HTML in view mode without loading the editor', async () => {
    stubFetch({});
    await renderBody('<h2>Summer</h2><p>Hello <strong>there</strong></p>', true);
    expect(bodyText()).toContain('Summer');
    expect(document.querySelector('.ProseMirror')).toBeNull();
    expect(document.querySelector('button[aria-label="Bold"]')).toBeNull();
  });

  it('edits with a toolbar for headings, marks, lists, quotes, code, links, tables and images', async () => {
    stubFetch({});
    await renderBody('<p>Hello</p>');
    const editor = await editorReady();
    expect(editor.getAttribute('contenteditable')).toBe('true');
    expect(editor.textContent).toBe('Hello');
    for (const label of [
      'Bold',
      'Italic',
      'Heading 1',
      'Heading 2',
      'Bullet list',
      'Ordered list',
      'Blockquote',
      'Code',
      'Link',
      'Insert image',
      'Upload image',
    ]) {
      expect(document.querySelector(`button[aria-label="${label}"]`), label).not.toBeNull();
    }
  }, 15_000);

  it('inserts an image chosen from the image sets, referencing the set', async () => {
    const calls = stubFetch({
      '/items/marquee-assets-image-set': {
        json: {
          items: [
            itemAnswer('set-42', { masterImage: fileRecord(), name: 'Beach', altText: 'A sunny beach' }),
            itemAnswer('set-43', {
              masterImage: fileRecord('qrstuvwxyzabcdef5678.png'),
              name: 'Mountain',
              altText: 'Snowy peak',
            }),
          ],
          nextCursor: null,
        },
      },
    });
    const values = await renderBody('<p>Intro</p>');
    await editorReady();
    await act(async () =>
      document.querySelector<HTMLButtonElement>('button[aria-label="Insert image"]')!.click(),
    );
    await findByText('Mountain');
    expect(calls[0].url).toBe(`/api/v1/workspaces/${WS}/items/marquee-assets-image-set?view=all&limit=100`);
    const tile = Array.from(document.querySelectorAll<HTMLButtonElement>('button[aria-pressed]')).find((b) =>
      b.textContent?.includes('Beach'),
    )!;
    expect(tile.querySelector('img')?.getAttribute('src')).toContain('w=400');
    await act(async () => tile.click());
    await act(async () => button('Insert image').click());
    await waitFor(() => expect(values.at(-1)).toContain('data-ref-id="set-42"'));
    const html = values.at(-1)!;
    expect(html).toContain('data-ref-schema-type="marquee-assets-image-set"');
    expect(html).toContain('alt="A sunny beach"');
    expect(html).toContain(
      `src="/fun/imageResize/?id=abcdefghijklmnop1234.png&amp;w=600&amp;__marquee_workspace=${WS}"`,
    );
    expect(html).toContain('Intro');

    // Writing goes on below the image instead of replacing it.
    const editor = byLabel<HTMLElement>('Body') as unknown as {
      editor: { commands: { insertContent: (text: string) => void } };
    };
    await act(async () => editor.editor.commands.insertContent('After the image'));
    await waitFor(() => expect(values.at(-1)).toContain('After the image'));
    expect(values.at(-1)).toContain('data-ref-id="set-42"');
  }, 15_000);

  it('stores an emptied document as an empty string (so required applies)', async () => {
    stubFetch({});
    const values = await renderBody('<p>x</p>');
    const editor = await editorReady();
    // TipTap hangs its editor on the editable element; clear the document through it.
    await act(async () => {
      (
        editor as unknown as { editor: { commands: { clearContent: (emit: boolean) => void } } }
      ).editor.commands.clearContent(true);
    });
    await waitFor(() => expect(values.at(-1)).toBe(''));
  }, 15_000);
});
