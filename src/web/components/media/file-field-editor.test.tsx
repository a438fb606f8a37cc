import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import userEvent from '@testing-library/user-event';
import { imageSet } from '@shared/schemas/assets';
import type { FileRecord } from '@shared/media/contract';
import { bodyText, button, queryByLabel } from '../item-form/test-utils';
import { findByText, waitFor } from '@web/test/render';
import { FileFieldEditor } from './file-field-editor';
import { FakeXhr, renderMedia, stubFetch, ValueHost } from './media-test-utils';
import { fileRecord, localSanity, pngFile, WS } from './test-data';

const field = imageSet.fields.find((f) => f.key === 'masterImage')!;

async function renderEditor(initial: FileRecord | null = null, readOnly = false) {
  const values: unknown[] = [];
  await renderMedia(
    <ValueHost
      initial={initial as unknown}
      onValue={(value) => values.push(value)}
      render={(value, onChange) => (
        <FileFieldEditor
          field={field}
          value={value}
          scope={{}}
          onChange={onChange}
          onPatch={() => {}}
          readOnly={readOnly}
          errors={{}}
          path="masterImage"
          inputId="f1"
        />
      )}
    />,
  );
  return values;
}

const fileInput = () => document.querySelector<HTMLInputElement>('input[type="file"]')!;

beforeEach(() => FakeXhr.install());
afterEach(() => vi.unstubAllGlobals());

describe('FileFieldEditor', () => {
  it("shows 'File not selected' without a file", async () => {
    stubFetch({});
    await renderEditor();
    expect(bodyText()).toContain('File not selected');
    expect(bodyText()).toContain('Drop an image here or click to choose one');
  });

  it('uploads with a progress bar, then analyses the image', async () => {
    const calls = stubFetch({ '/fun/sanity/': { json: localSanity() } });
    const values = await renderEditor();
    await act(async () => userEvent.upload(fileInput(), pngFile('beach.png', 4000)));
    const request = await waitFor(() => FakeXhr.pending()[0] ?? Promise.reject(new Error('no upload yet')));
    expect(request.method).toBe('POST');
    expect(request.url).toBe(`/api/v1/workspaces/${WS}/files`);
    expect(request.file.name).toBe('beach.png');

    await request.progress(1000, 4000);
    expect(bodyText()).toContain('Uploading beach.png');
    expect(document.querySelector('[data-testid="upload-percent"]')?.textContent).toBe('25%');
    await request.progress(4000, 4000);
    expect(document.querySelector('[data-testid="upload-percent"]')?.textContent).toBe('100%');

    await request.respond(201, fileRecord());
    await findByText('Uploaded successfully');
    await findByText('Image analysis done');
    expect(
      calls.some((call) =>
        call.url.startsWith(`/fun/sanity/?id=abcdefghijklmnop1234.png&__marquee_workspace=${WS}`),
      ),
    ).toBe(true);
    expect(values[0]).toEqual(fileRecord());
    expect(values.at(-1)).toEqual({ ...fileRecord(), sanityResults: localSanity() });
    // The editor's thumbnail is imageResize w=600.
    const img = document.querySelector<HTMLImageElement>('[data-testid="focal-point-image"] img')!;
    expect(img.getAttribute('src')).toBe(
      `/fun/imageResize/?id=abcdefghijklmnop1234.png&w=600&__marquee_workspace=${WS}`,
    );
    expect(bodyText()).toContain('Safe search not analysed');
  });

  it("reports a failed upload as 'File upload failed. Error: {message}' and keeps no file", async () => {
    stubFetch({});
    const values = await renderEditor();
    await act(async () => userEvent.upload(fileInput(), pngFile('huge.png')));
    const request = await waitFor(() => FakeXhr.pending()[0] ?? Promise.reject(new Error('no upload yet')));
    await request.respond(413, { error: { code: 'too_large', message: 'The file is larger than 25 MB' } });
    await findByText('File upload failed. Error: The file is larger than 25 MB');
    expect(values).toEqual([]);
    expect(bodyText()).toContain('File not selected');
  });

  it('refuses files that are not images without uploading them', async () => {
    stubFetch({});
    await renderEditor();
    const input = fileInput();
    expect(input.getAttribute('accept')).toContain('image/*');
    await act(async () =>
      userEvent.upload(input, new File(['%PDF'], 'brief.pdf', { type: 'application/pdf' }), {
        applyAccept: false,
      }),
    );
    await findByText(
      /File upload failed\. Error: Only images can be uploaded; "brief.pdf" is not an image\./,
    );
    expect(FakeXhr.requests).toHaveLength(0);
  });

  it('sets the focal point where the image is clicked, and removes the file', async () => {
    const calls = stubFetch({ '/files/': { json: fileRecord() } });
    const values = await renderEditor(fileRecord(undefined, { sanityResults: localSanity() }));
    const frame = document.querySelector<HTMLElement>('[data-testid="focal-point-image"]')!;
    const img = frame.querySelector('img')!;
    img.getBoundingClientRect = () => ({
      left: 0,
      top: 0,
      width: 600,
      height: 400,
      right: 600,
      bottom: 400,
      x: 0,
      y: 0,
      toJSON: () => ({}),
    });
    await act(async () => {
      frame.dispatchEvent(new MouseEvent('click', { bubbles: true, clientX: 150, clientY: 300 }));
    });
    expect(values.at(-1)).toMatchObject({ focusX: 0.25, focusY: 0.75 });
    // The file record keeps the point too (after a short pause).
    await waitFor(() => {
      const patch = calls.find((call) => call.init?.method === 'PATCH');
      if (!patch) throw new Error('no PATCH yet');
      expect(JSON.parse(String(patch.init!.body))).toEqual({ focusX: 0.25, focusY: 0.75 });
    }, 2000);

    await act(async () => button('Remove').click());
    expect(values.at(-1)).toBeNull();
    expect(bodyText()).toContain('File not selected');
  });

  it('shows the image and its analysis read-only, without upload controls', async () => {
    stubFetch({});
    await renderEditor(fileRecord(undefined, { sanityResults: localSanity() }), true);
    expect(bodyText()).toContain('beach.png');
    expect(bodyText()).toContain('Image check');
    expect(queryByLabel('Remove beach.png')).toBeNull();
    expect(document.querySelector('[data-testid="focal-point-image"]')?.getAttribute('role')).toBeNull();
  });
});
