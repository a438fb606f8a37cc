import { act, useState } from 'react';
import { MantineProvider } from '@mantine/core';
import { click, getByText, queryByText, render } from '@web/test/render';
import { theme } from '../app/theme';
import { UPDATE_NOTICE_TEXT, UPDATE_NOTICE_TIMEOUT_MS, UpdateNoticeView } from './update-notice-view';

/** The notice as the app wires it: open until REFRESH, IGNORE or the time-out. */
function Harness({ onRefresh }: { onRefresh: () => void }) {
  const [isOpen, setOpen] = useState(true);
  return (
    <MantineProvider theme={theme}>
      <UpdateNoticeView isOpen={isOpen} onRefresh={onRefresh} onIgnore={() => setOpen(false)} />
    </MantineProvider>
  );
}

describe('the update notice (spec §8, §9)', () => {
  afterEach(() => vi.useRealTimers());

  it('REFRESH asks for the new version', async () => {
    const refreshed: number[] = [];
    await render(<Harness onRefresh={() => refreshed.push(1)} />);
    expect(getByText(UPDATE_NOTICE_TEXT)).toBeTruthy();
    await click(getByText('REFRESH'));
    expect(refreshed).toHaveLength(1);
  });

  it('IGNORE closes it', async () => {
    await render(<Harness onRefresh={() => undefined} />);
    await click(getByText('IGNORE'));
    expect(queryByText(UPDATE_NOTICE_TEXT)).toBeNull();
  });

  it('closes itself after 10000 ms, not before', async () => {
    vi.useFakeTimers();
    await render(<Harness onRefresh={() => undefined} />);
    await act(async () => vi.advanceTimersByTime(UPDATE_NOTICE_TIMEOUT_MS - 1));
    expect(queryByText(UPDATE_NOTICE_TEXT)).not.toBeNull();
    await act(async () => vi.advanceTimersByTime(1));
    expect(queryByText(UPDATE_NOTICE_TEXT)).toBeNull();
  });
});
