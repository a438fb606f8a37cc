import type { FileRecord, SanityResult } from '@shared/media/contract';
import { timezoneKey } from '@shared/schemas/types';
import { UPLOAD_TIMEZONE } from '@shared/time/zones';

/**
 * The rows of the multi-image upload dialog (spec §2, §4 Image upload wizard): one per picked image,
 * from upload through analysis to the saved image set. Pure, so the table's editing is tested alone.
 */
type RowStatus = 'queued' | 'uploading' | 'uploaded' | 'failed' | 'saving' | 'saved' | 'save-failed';

export interface UploadRow {
  key: string;
  file: File;
  status: RowStatus;
  /** 0 to 100 while uploading. */
  percent: number;
  record: FileRecord | null;
  /** 'pending' until /fun/sanity/ answers; null when it failed (the row can still be saved). */
  sanity: SanityResult | null | 'pending';
  /** Upload or save failure, shown in the row. */
  error: string | null;
  name: string;
  altText: string;
  labels: string[];
  /** ISO instants, or null. */
  startTime: string | null;
  endTime: string | null;
  /** Id of the image set once saved. */
  itemId: string | null;
}

/** Optional start and end of an image set, as ISO instants. */
export interface UploadDates {
  startTime: string | null;
  endTime: string | null;
}

export type EditableKey = 'name' | 'altText' | 'labels' | 'startTime' | 'endTime';
type EditableValue<K extends EditableKey> = UploadRow[K];

export type RowsAction =
  | { type: 'add'; rows: UploadRow[] }
  | { type: 'progress'; key: string; percent: number }
  | { type: 'uploading'; key: string }
  | { type: 'uploaded'; key: string; record: FileRecord }
  | { type: 'upload-failed'; key: string; message: string }
  | { type: 'analysed'; key: string; sanity: SanityResult | null }
  | { type: 'edit'; key: string; field: EditableKey; value: EditableValue<EditableKey> }
  | { type: 'dates'; startTime: string | null; endTime: string | null }
  | { type: 'remove'; key: string }
  | { type: 'saving'; key: string }
  | { type: 'saved'; key: string; itemId: string }
  | { type: 'save-failed'; key: string; message: string };

/** 'summer-beach_02.jpg' → 'summer beach 02': a readable default name. */
export function nameFromFile(fileName: string): string {
  const base = fileName.replace(/\.[^./\\]+$/, '');
  const words = base.replace(/[_-]+/g, ' ').replace(/\s+/g, ' ').trim();
  return words || fileName;
}

let counter = 0;
export function newRow(file: File, dates: UploadDates = { startTime: null, endTime: null }): UploadRow {
  const name = nameFromFile(file.name);
  return {
    key: `row-${Date.now().toString(36)}-${++counter}`,
    file,
    status: 'queued',
    percent: 0,
    record: null,
    sanity: 'pending',
    error: null,
    name,
    altText: name,
    labels: [],
    startTime: dates.startTime,
    endTime: dates.endTime,
    itemId: null,
  };
}

const update = (rows: UploadRow[], key: string, patch: (row: UploadRow) => Partial<UploadRow>) =>
  rows.map((row) => (row.key === key ? { ...row, ...patch(row) } : row));

export function rowsReducer(rows: UploadRow[], action: RowsAction): UploadRow[] {
  switch (action.type) {
    case 'add':
      return [...rows, ...action.rows];
    case 'uploading':
      return update(rows, action.key, () => ({ status: 'uploading', error: null }));
    case 'progress':
      // Progress events can arrive after the answer: a settled row keeps its state.
      return update(rows, action.key, (row) =>
        row.status === 'uploading' || row.status === 'queued'
          ? { status: 'uploading', percent: Math.max(row.percent, Math.min(100, action.percent)) }
          : {},
      );
    case 'uploaded':
      return update(rows, action.key, () => ({
        status: 'uploaded',
        percent: 100,
        record: action.record,
        error: null,
      }));
    case 'upload-failed':
      return update(rows, action.key, () => ({ status: 'failed', error: action.message, sanity: null }));
    case 'analysed':
      return update(rows, action.key, (row) => ({
        sanity: action.sanity,
        record: row.record && action.sanity ? { ...row.record, sanityResults: action.sanity } : row.record,
      }));
    case 'edit':
      return update(rows, action.key, (row) =>
        row.status === 'saved' ? {} : { [action.field]: action.value },
      );
    case 'dates':
      // Step 1's dates apply to every row not yet saved.
      return rows.map((row) =>
        row.status === 'saved' ? row : { ...row, startTime: action.startTime, endTime: action.endTime },
      );
    case 'remove':
      return rows.filter((row) => row.key !== action.key || row.status === 'saving');
    case 'saving':
      return update(rows, action.key, () => ({ status: 'saving', error: null }));
    case 'saved':
      return update(rows, action.key, () => ({ status: 'saved', itemId: action.itemId, error: null }));
    case 'save-failed':
      return update(rows, action.key, () => ({ status: 'save-failed', error: action.message }));
  }
}

/** True when both dates are set and the end is not after the start. */
export const datesOutOfOrder = ({ startTime, endTime }: UploadDates) =>
  !!startTime && !!endTime && Date.parse(endTime) <= Date.parse(startTime);

/** What keeps a row from being saved, or null when it can be. */
export function rowProblem(row: UploadRow): string | null {
  if (row.status === 'failed') return 'Upload failed';
  if (!row.record) return 'Still uploading';
  if (!row.name.trim()) return 'Name is required';
  if (!row.altText.trim()) return 'Alt Text is required';
  if (datesOutOfOrder(row)) return 'End time must be after the start time';
  return null;
}

/** Rows Save Images would save now: uploaded, valid and not yet saved. */
export const rowsToSave = (rows: readonly UploadRow[]) =>
  rows.filter(
    (row) => (row.status === 'uploaded' || row.status === 'save-failed') && rowProblem(row) === null,
  );

/** True while any row is still uploading or waiting to. */
export const isUploading = (rows: readonly UploadRow[]) =>
  rows.some((row) => row.status === 'queued' || row.status === 'uploading');

/** The `marquee-assets-image-set` item data of a row (spec §3 Image-set item); dates in the upload zone. */
export function imageSetData(row: UploadRow): Record<string, unknown> {
  if (!row.record) throw new Error('The image is not uploaded yet');
  const data: Record<string, unknown> = {
    masterImage: row.record,
    name: row.name.trim(),
    altText: row.altText.trim(),
  };
  if (row.labels.length > 0) data.labels = row.labels;
  if (row.startTime) {
    data.startTime = row.startTime;
    data[timezoneKey('startTime')] = UPLOAD_TIMEZONE;
  }
  if (row.endTime) {
    data.endTime = row.endTime;
    data[timezoneKey('endTime')] = UPLOAD_TIMEZONE;
  }
  return data;
}
