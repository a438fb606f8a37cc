import { overallPercent } from './upload-progress';
import { isUploading, rowsToSave, type UploadRow } from './upload-rows';

export interface UploadTotals {
  uploading: boolean;
  failed: number;
  uploaded: number;
  /** Rows Save Images would save now. */
  saveable: UploadRow[];
  /** Progress of the uploads that have not failed, 0 to 100. */
  percent: number;
}

/** The counts the upload dialog's summaries show. */
export function uploadTotals(rows: readonly UploadRow[]): UploadTotals {
  return {
    uploading: isUploading(rows),
    failed: rows.filter((row) => row.status === 'failed').length,
    uploaded: rows.filter((row) => row.record).length,
    saveable: rowsToSave(rows),
    percent: overallPercent(
      rows
        .filter((row) => row.status !== 'failed')
        .map((row) => ({ size: row.file.size, percent: row.record ? 100 : row.percent })),
    ),
  };
}
