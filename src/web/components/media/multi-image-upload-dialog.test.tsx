import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import userEvent from '@testing-library/user-event';
import { bodyText, button, byLabel, changeValue } from '../item-form/test-utils';
import { findByText, waitFor } from '@web/test/render';
import { FakeXhr, renderMedia, stubFetch } from './media-test-utils';
import { MultiImageUploadDialog } from './multi-image-upload-dialog';
import { fileRecord, itemAnswer, localSanity, pngFile, WS } from './test-data';

beforeEach(() => FakeXhr.install());
afterEach(() => vi.unstubAllGlobals());

const storageNameOf = (index: number) => `abcdefghijklmnop000${index}.png`;

async function pickFiles(files: File[]) {
  const input = document.querySelector<HTMLInputElement>('input[aria-label="Choose images to upload"]')!;
  await act(async () => userEvent.upload(input, files));
}

describe('MultiImageUploadDialog', () => {
  it('uploads a few at once with progress, isolates a failure, and saves one image set per image', async () => {
    let created = 0;
    const batch = {
      id: 'batch-1',
      kind: 'image-upload',
      fileName: null,
      status: 'running',
      total: 4,
      processed: 0,
      stored: 0,
      duplicates: 0,
      failed: 0,
      errors: [],
      errorGroups: [],
      errorKinds: 0,
      bytesTotal: null,
      bytesRead: 0,
      startedAt: '2026-01-01T00:00:00.000Z',
      finishedAt: null,
      createdBy: 'u1',
      createdByName: 'Una',
    };
    const calls = stubFetch({
      '/fun/sanity/': { json: localSanity() },
      '/batches': { status: 201, json: batch },
      '/items/marquee-assets-image-set': (_url, init) => {
        const data = JSON.parse(String(init?.body)).data;
        created++;
        if (data.name === 'img 4')
          return { status: 500, json: { error: { code: 'boom', message: 'Database unavailable' } } };
        return { status: 201, json: itemAnswer(`set-${created}`, data) };
      },
    });
    const saved = vi.fn();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    await renderMedia(<MultiImageUploadDialog opened onClose={() => {}} workspaceId={WS} onSaved={saved} />);
    await findByText('Drag images here or click to choose');

    await pickFiles([1, 2, 3, 4, 5].map((n) => pngFile(`img-${n}.png`, 1000)));
    // At most three uploads at once.
    await waitFor(() => expect(FakeXhr.pending()).toHaveLength(3));
    const [first, second, third] = FakeXhr.pending();
    await first.progress(500, 1000);
    expect(bodyText()).toContain('50%');
    expect(bodyText()).toContain('Waiting');

    // One failure: only its row shows it, and the next upload starts.
    await second.respond(415, {
      error: { code: 'unsupported_type', message: 'Only images can be uploaded' },
    });
    await waitFor(() => expect(FakeXhr.pending()).toHaveLength(3));
    expect(bodyText()).toContain('Failed');
    expect(errors).toHaveBeenCalled();

    await first.respond(201, fileRecord(storageNameOf(1), { name: 'img-1.png' }));
    await third.respond(201, fileRecord(storageNameOf(3), { name: 'img-3.png' }));
    await waitFor(() => expect(FakeXhr.pending()).toHaveLength(2));
    const [fourth, fifth] = FakeXhr.pending();
    await fourth.respond(201, fileRecord(storageNameOf(4), { name: 'img-4.png' }));
    await fifth.respond(201, fileRecord(storageNameOf(5), { name: 'img-5.png' }));
    await waitFor(() => expect(calls.filter((c) => c.url.includes('/fun/sanity/'))).toHaveLength(4));

    await act(async () => button('Next').click());
    await waitFor(() => expect(document.querySelectorAll('[data-testid="upload-row"]')).toHaveLength(5));
    // h=100 thumbnails from the server once uploaded.
    const thumbs = Array.from(document.querySelectorAll<HTMLImageElement>('[data-testid="upload-thumb"]'));
    expect(thumbs).toHaveLength(4);
    expect(thumbs[0].getAttribute('src')).toBe(
      `/fun/imageResize/?id=${storageNameOf(1)}&h=100&__marquee_workspace=${WS}`,
    );
    await findByText('Safe search not analysed');
    expect(bodyText()).toContain('Upload failed: Only images can be uploaded');

    // Table editing: name, alt text and tags of the first image.
    await changeValue(byLabel('Name of image 1'), 'Hero banner');
    await changeValue(byLabel('Alt text of image 1'), 'Surfers at dawn');

    await act(async () => button('Save Images').click());
    await findByText(/3 saved, 1 not saved/);
    const posts = calls.filter((c) => c.init?.method === 'POST' && c.url.includes('/items/'));
    expect(posts).toHaveLength(4);
    // The save is recorded as a batch: opened with its total, each image reported, then finished.
    const batchCalls = calls
      .filter((c) => c.url.includes('/batches'))
      .map((c) => [c.url, JSON.parse(String(c.init!.body))]);
    expect(batchCalls[0]).toEqual([`/api/v1/workspaces/${WS}/batches`, { kind: 'image-upload', total: 4 }]);
    const reports = batchCalls.slice(1).map(([, body]) => body);
    expect(reports.filter((r) => r.processed === 1)).toHaveLength(3);
    expect(reports.find((r) => r.failed === 1)?.errors[0].message).toContain('Database unavailable');
    expect(reports[reports.length - 1]).toEqual({ finished: true });
    expect(posts.every((c) => c.url === `/api/v1/workspaces/${WS}/items/marquee-assets-image-set`)).toBe(
      true,
    );
    const first1 = posts
      .map((c) => JSON.parse(String(c.init!.body)).data)
      .find((d) => d.name === 'Hero banner');
    expect(first1).toMatchObject({
      altText: 'Surfers at dawn',
      masterImage: { storageName: storageNameOf(1), sanityResults: localSanity() },
    });
    expect(bodyText()).toContain('Not saved: Database unavailable');
    expect(document.querySelectorAll('[data-status="saved"]')).toHaveLength(3);
    expect(saved).not.toHaveBeenCalled();
    errors.mockRestore();
  }, 20_000);

  it('applies the optional start and end dates (Los Angeles time) to every image', async () => {
    const calls = stubFetch({
      '/fun/sanity/': { json: localSanity() },
      '/items/marquee-assets-image-set': (_url, init) => ({
        status: 201,
        json: itemAnswer('set-1', JSON.parse(String(init?.body)).data),
      }),
    });
    const saved = vi.fn();
    await renderMedia(<MultiImageUploadDialog opened onClose={() => {}} workspaceId={WS} onSaved={saved} />);
    await findByText('Drag images here or click to choose');
    await changeValue(byLabel('Start time'), '2025/07/01 09:00');
    await changeValue(byLabel('End time'), '2025/07/31 18:30');
    await pickFiles([pngFile('a.png')]);
    const request = await waitFor(() => FakeXhr.pending()[0] ?? Promise.reject(new Error('no upload yet')));
    await request.respond(201, fileRecord(storageNameOf(1)));
    await act(async () => button('Next').click());
    await findByText('Safe search not analysed');
    await act(async () => button('Save Images').click());
    await waitFor(() => expect(saved).toHaveBeenCalledWith(['set-1']));
    const data = JSON.parse(
      String(calls.find((c) => c.init?.method === 'POST' && c.url.includes('/items/'))!.init!.body),
    ).data;
    expect(data).toMatchObject({
      name: 'a',
      altText: 'a',
      startTime: '2025-07-01T16:00:00.000Z',
      startTime_tz: 'America/Los_Angeles',
      endTime: '2025-08-01T01:30:00.000Z',
      endTime_tz: 'America/Los_Angeles',
    });
  }, 15_000);
});
