import { QueryClient } from '@tanstack/react-query';
import { modals } from '@mantine/modals';
import { render, screen } from '@testing-library/react';

describe('AppProviders', () => {
  it('shows a confirm dialog asked for before the lazily loaded modals were in', async () => {
    // A fresh copy of the module: its early-event keeper must not have been used by another test file.
    vi.resetModules();
    const { AppProviders } = await import('./providers');
    modals.openConfirmModal({ title: 'Remove fr-FR?', labels: { confirm: 'Remove', cancel: 'Cancel' } });
    render(
      <AppProviders client={new QueryClient()}>
        <p>Screen</p>
      </AppProviders>,
    );
    expect(await screen.findByRole('dialog', { name: 'Remove fr-FR?' })).toBeInTheDocument();
  });
});
