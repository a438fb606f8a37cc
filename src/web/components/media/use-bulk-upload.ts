import { useCallback, useEffect, useReducer, useRef, type Dispatch } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '@web/lib/api-client';
import { createImageSet, invalidateWorkspaceItems } from './api/create-image-set';
import { getSanity } from './api/get-sanity';
import { isAbortError, uploadFile } from './api/upload-file';
import { reportUploadBatch, startUploadBatch } from './api/record-upload-batch';
import {
  newRow,
  imageSetData,
  rowsReducer,
  rowsToSave,
  type RowsAction,
  type UploadDates,
  type UploadRow,
} from './upload-rows';
import { createTaskQueue, runBounded, UPLOAD_CONCURRENCY } from './upload-queue';
import { progressPercent } from './upload-progress';
import { isImageFile, notAnImageDetail } from './upload-messages';

/** Logs a bulk failure: spec §8 says bulk image upload failures are only logged (and shown in their row). */
function logFailure(what: string, row: UploadRow, e: unknown) {
  console.error(`Bulk image upload: ${what} failed for "${row.file.name}": ${errorMessage(e)}`, e);
}

/**
 * Creates one image set per row, a few at once, each row's state following its save. The settings
 * batches page follows the save as a batch; the save goes on if recording it fails.
 */
async function saveRows(workspaceId: string, ready: UploadRow[], dispatch: Dispatch<RowsAction>) {
  const batch = ready.length ? await startUploadBatch(workspaceId, ready.length).catch(() => null) : null;
  const report = (progress: Parameters<typeof reportUploadBatch>[2]) =>
    batch ? reportUploadBatch(workspaceId, batch.id, progress).catch(() => null) : null;
  const results = await runBounded(ready, UPLOAD_CONCURRENCY, async (row) => {
    dispatch({ type: 'saving', key: row.key });
    try {
      const item = await createImageSet(workspaceId, imageSetData(row));
      dispatch({ type: 'saved', key: row.key, itemId: item.id });
      await report({ processed: 1 });
      return item.id;
    } catch (e) {
      logFailure('saving the image set', row, e);
      dispatch({ type: 'save-failed', key: row.key, message: errorMessage(e) });
      const line = ready.indexOf(row) + 1;
      await report({
        failed: 1,
        errors: [{ line, message: `${row.file.name}: ${errorMessage(e)}`.slice(0, 500) }],
      });
      throw e;
    }
  });
  await report({ finished: true });
  return results;
}

/**
 * The state and work of the multi-image upload dialog: files upload as soon as they are picked, a few
 * at once, each with its own progress; each uploaded image is analysed; Save Images creates one image
 * set per row. A failure touches only its own row.
 */
export function useBulkUpload(workspaceId: string) {
  const client = useQueryClient();
  const [rows, dispatch] = useReducer(rowsReducer, []);
  const rowsRef = useRef(rows);
  useEffect(() => {
    rowsRef.current = rows;
  });
  const session = useRef<{ queue: ReturnType<typeof createTaskQueue>; controller: AbortController } | null>(
    null,
  );
  const ensureSession = () => {
    session.current ??= { queue: createTaskQueue(UPLOAD_CONCURRENCY), controller: new AbortController() };
    return session.current;
  };

  const analyse = useCallback(
    async (row: UploadRow, storageName: string, signal: AbortSignal) => {
      try {
        dispatch({
          type: 'analysed',
          key: row.key,
          sanity: await getSanity(workspaceId, storageName, signal),
        });
      } catch (e) {
        if (isAbortError(e)) return;
        logFailure('image analysis', row, e);
        dispatch({ type: 'analysed', key: row.key, sanity: null });
      }
    },
    [workspaceId],
  );

  const addFiles = useCallback(
    (files: readonly File[], dates: UploadDates) => {
      const { queue, controller } = ensureSession();
      const added = files.map((file) => newRow(file, dates));
      dispatch({ type: 'add', rows: added });
      for (const row of added) {
        if (!isImageFile(row.file)) {
          logFailure('upload', row, new Error(notAnImageDetail(row.file.name)));
          dispatch({ type: 'upload-failed', key: row.key, message: notAnImageDetail(row.file.name) });
          continue;
        }
        queue
          .add(async () => {
            if (controller.signal.aborted) return;
            dispatch({ type: 'uploading', key: row.key });
            const record = await uploadFile(workspaceId, row.file, {
              signal: controller.signal,
              onProgress: ({ loaded, total }) =>
                dispatch({
                  type: 'progress',
                  key: row.key,
                  percent: progressPercent(loaded, total, row.file.size),
                }),
            });
            dispatch({ type: 'uploaded', key: row.key, record });
            void analyse(row, record.storageName, controller.signal);
          })
          .catch((e: unknown) => {
            if (isAbortError(e)) return;
            logFailure('upload', row, e);
            dispatch({ type: 'upload-failed', key: row.key, message: errorMessage(e) });
          });
      }
    },
    [workspaceId, analyse],
  );

  /** Creates the image sets of every row ready to save; resolves to how many were saved and failed. */
  const saveAll = useCallback(async () => {
    const results = await saveRows(workspaceId, rowsToSave(rowsRef.current), dispatch);
    if (results.some((result) => result.status === 'fulfilled'))
      void invalidateWorkspaceItems(client, workspaceId);
    return {
      saved: results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : [])),
      failed: results.filter((result) => result.status === 'rejected').length,
    };
  }, [client, workspaceId]);

  /** Stops every upload in flight and forgets the rows. */
  const reset = useCallback(() => {
    session.current?.controller.abort();
    session.current = null;
    for (const row of rowsRef.current) dispatch({ type: 'remove', key: row.key });
  }, []);

  useEffect(() => () => session.current?.controller.abort(), []);

  return { rows, dispatch, addFiles, saveAll, reset };
}
