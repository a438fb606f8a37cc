import { screen } from '@testing-library/react';
import type { Batch } from '@shared/api/workspaces';
import { renderUi } from './item-form/test-utils';
import { BatchProgress } from './batch-progress';

const batch = (overrides: Partial<Batch> = {}): Batch => ({
  id: 'b1',
  kind: 'customer-events-import',
  fileName: 'events.csv',
  status: 'done',
  total: 20_000,
  processed: 20_000,
  stored: 20_000,
  duplicates: 0,
  failed: 0,
  errors: [],
  errorGroups: [],
  errorKinds: 0,
  bytesTotal: 1000,
  bytesRead: 1000,
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-01T00:01:00.000Z',
  createdBy: 'u1',
  createdByName: 'Una',
  ...overrides,
});

describe('BatchProgress', () => {
  it('says how many rows were stored and how many skipped as duplicates', async () => {
    // An import of 20,000 rows, 17,410 of them repeats, said '20,000 processed, 0 failed'.
    await renderUi(<BatchProgress batch={batch({ stored: 2590, duplicates: 17_410, failed: 3 })} />);
    expect(screen.getByTestId('batch-counts').textContent).toBe(
      '20,000 processed: 2,590 stored, 17,410 duplicates skipped, 3 failed',
    );
  });

  it('keeps to processed and failed when nothing was a duplicate', async () => {
    await renderUi(<BatchProgress batch={batch({ failed: 2 })} />);
    expect(screen.getByTestId('batch-counts').textContent).toBe('20,000 processed, 2 failed');
  });
});
