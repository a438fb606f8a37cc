import { describe, expect, it } from 'vitest';
import { fileRecord, localSanity, pngFile } from './test-data';
import {
  imageSetData,
  isUploading,
  nameFromFile,
  newRow,
  rowProblem,
  rowsReducer,
  rowsToSave,
  type UploadRow,
} from './upload-rows';

const start = '2025-06-01T16:00:00.000Z';
const end = '2025-06-30T16:00:00.000Z';

function uploadedRows(count = 3): UploadRow[] {
  let rows: UploadRow[] = [];
  const added = Array.from({ length: count }, (_, i) => newRow(pngFile(`img-${i + 1}.png`)));
  rows = rowsReducer(rows, { type: 'add', rows: added });
  added.forEach((row, i) => {
    rows = rowsReducer(rows, {
      type: 'uploaded',
      key: row.key,
      record: fileRecord(`abcdefghijklmnop000${i}.png`),
    });
  });
  return rows;
}

describe('nameFromFile', () => {
  it('makes a readable name of a file name', () => {
    expect(nameFromFile('summer-beach_01.png')).toBe('summer beach 01');
    expect(nameFromFile('IMG 2041.JPG')).toBe('IMG 2041');
    expect(nameFromFile('.png')).toBe('.png');
  });
});

describe('rowsReducer: uploads', () => {
  it('moves a row from queued through uploading to uploaded, with progress only rising', () => {
    const row = newRow(pngFile(), { startTime: start, endTime: null });
    expect(row).toMatchObject({
      status: 'queued',
      name: 'summer beach 01',
      altText: 'summer beach 01',
      startTime: start,
      sanity: 'pending',
    });
    let rows = rowsReducer([], { type: 'add', rows: [row] });
    rows = rowsReducer(rows, { type: 'uploading', key: row.key });
    rows = rowsReducer(rows, { type: 'progress', key: row.key, percent: 40 });
    rows = rowsReducer(rows, { type: 'progress', key: row.key, percent: 30 });
    expect(rows[0]).toMatchObject({ status: 'uploading', percent: 40 });
    expect(isUploading(rows)).toBe(true);
    rows = rowsReducer(rows, { type: 'uploaded', key: row.key, record: fileRecord() });
    rows = rowsReducer(rows, { type: 'progress', key: row.key, percent: 99 });
    expect(rows[0]).toMatchObject({ status: 'uploaded', percent: 100 });
    expect(isUploading(rows)).toBe(false);
  });

  it('keeps a failed upload in its own row and leaves the others alone', () => {
    let rows = uploadedRows(2);
    const extra = newRow(pngFile('broken.png'));
    rows = rowsReducer(rows, { type: 'add', rows: [extra] });
    rows = rowsReducer(rows, {
      type: 'upload-failed',
      key: extra.key,
      message: 'Only images can be uploaded',
    });
    expect(rows.map((r) => r.status)).toEqual(['uploaded', 'uploaded', 'failed']);
    expect(rows[2].error).toBe('Only images can be uploaded');
    expect(rowProblem(rows[2])).toBe('Upload failed');
    expect(rowsToSave(rows)).toHaveLength(2);
  });

  it('puts the analysis into the row and into its file record', () => {
    let rows = uploadedRows(1);
    rows = rowsReducer(rows, { type: 'analysed', key: rows[0].key, sanity: localSanity() });
    expect(rows[0].sanity).toEqual(localSanity());
    expect(rows[0].record?.sanityResults).toEqual(localSanity());
  });
});

describe('rowsReducer: table editing', () => {
  it('edits name, alt text, tags and dates of one row', () => {
    let rows = uploadedRows(2);
    const key = rows[1].key;
    rows = rowsReducer(rows, { type: 'edit', key, field: 'name', value: 'Hero banner' });
    rows = rowsReducer(rows, { type: 'edit', key, field: 'altText', value: 'Surfers at dawn' });
    rows = rowsReducer(rows, { type: 'edit', key, field: 'labels', value: ['surf', 'summer'] });
    rows = rowsReducer(rows, { type: 'edit', key, field: 'startTime', value: start });
    expect(rows[1]).toMatchObject({
      name: 'Hero banner',
      altText: 'Surfers at dawn',
      labels: ['surf', 'summer'],
      startTime: start,
    });
    expect(rows[0]).toMatchObject({ name: 'img 1', labels: [], startTime: null });
  });

  it("applies step 1's dates to every row not saved yet", () => {
    let rows = uploadedRows(2);
    rows = rowsReducer(rows, { type: 'saved', key: rows[0].key, itemId: 'item-1' });
    rows = rowsReducer(rows, { type: 'dates', startTime: start, endTime: end });
    expect(rows[0].startTime).toBeNull();
    expect(rows[1]).toMatchObject({ startTime: start, endTime: end });
  });

  it('does not edit or remove a saved row', () => {
    let rows = uploadedRows(2);
    rows = rowsReducer(rows, { type: 'saved', key: rows[0].key, itemId: 'item-1' });
    rows = rowsReducer(rows, { type: 'edit', key: rows[0].key, field: 'name', value: 'changed' });
    expect(rows[0].name).toBe('img 1');
    rows = rowsReducer(rows, { type: 'remove', key: rows[1].key });
    expect(rows).toHaveLength(1);
  });

  it('blocks saving rows without a name or alt text, or with the end before the start', () => {
    let rows = uploadedRows(3);
    rows = rowsReducer(rows, { type: 'edit', key: rows[0].key, field: 'name', value: '  ' });
    rows = rowsReducer(rows, { type: 'edit', key: rows[1].key, field: 'altText', value: '' });
    rows = rowsReducer(rows, { type: 'edit', key: rows[2].key, field: 'startTime', value: end });
    rows = rowsReducer(rows, { type: 'edit', key: rows[2].key, field: 'endTime', value: start });
    expect(rows.map(rowProblem)).toEqual([
      'Name is required',
      'Alt Text is required',
      'End time must be after the start time',
    ]);
    expect(rowsToSave(rows)).toHaveLength(0);
  });

  it('offers a row whose save failed for the next Save Images', () => {
    let rows = uploadedRows(2);
    rows = rowsReducer(rows, { type: 'saving', key: rows[0].key });
    rows = rowsReducer(rows, { type: 'save-failed', key: rows[0].key, message: 'Server down' });
    rows = rowsReducer(rows, { type: 'saved', key: rows[1].key, itemId: 'x' });
    expect(rowsToSave(rows).map((r) => r.key)).toEqual([rows[0].key]);
  });
});

describe('imageSetData', () => {
  it('is the image-set item of the row, dates in the upload time zone', () => {
    let rows = uploadedRows(1);
    const key = rows[0].key;
    rows = rowsReducer(rows, { type: 'edit', key, field: 'labels', value: ['beach'] });
    rows = rowsReducer(rows, { type: 'dates', startTime: start, endTime: end });
    expect(imageSetData(rows[0])).toEqual({
      masterImage: rows[0].record,
      name: 'img 1',
      altText: 'img 1',
      labels: ['beach'],
      startTime: start,
      startTime_tz: 'America/Los_Angeles',
      endTime: end,
      endTime_tz: 'America/Los_Angeles',
    });
  });

  it('leaves out empty tags and dates', () => {
    const [row] = uploadedRows(1);
    expect(Object.keys(imageSetData(row))).toEqual(['masterImage', 'name', 'altText']);
  });
});
