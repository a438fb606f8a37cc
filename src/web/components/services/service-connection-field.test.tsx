import { act } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import { screen } from '@testing-library/react';
import { AUTH_MESSAGE_SIGN } from '@shared/api/services';
import { publicConfigOptions } from '@web/lib/public-config';
import { workspaceQueryKey } from '@web/lib/workspace';
import { renderUi } from '../item-form/test-utils';
import type { FieldProps } from '../fields/types';
import { ServiceConnectionField } from './service-connection-field';

/** What the server says is configured, and whether the caller manages workspace `acme`. */
interface Setup {
  providers: string[];
  isManager: boolean;
}

async function renderConnection(value: unknown, setup?: Setup) {
  const onChange = vi.fn();
  const props = {
    field: { key: 'connection', label: 'Connection', type: 'service-connection' },
    value,
    scope: { connection: value },
    onChange,
    onPatch: () => {},
    readOnly: false,
    errors: {},
    path: 'connection',
    inputId: 'connection-input',
  } as unknown as FieldProps;
  const client = new QueryClient();
  if (setup) {
    client.setQueryData(publicConfigOptions.queryKey, {
      version: '1.8.0',
      publicUrl: window.location.origin,
      providers: setup.providers,
      mapTileUrl: null,
    });
    client.setQueryData(workspaceQueryKey('acme'), {
      id: 'acme',
      __permissions: { canManageWorkspace: setup.isManager },
    } as never);
  }
  await renderUi(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/acme/admin/service/new']}>
        <Routes>
          <Route path="/:workspace/*" element={<ServiceConnectionField {...props} />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return onChange;
}

const post = (data: unknown, origin = window.location.origin) =>
  act(async () => {
    window.dispatchEvent(new MessageEvent('message', { data, origin }));
  });

describe('service connection field', () => {
  it('takes the pop-up message with the signature from the app origin', async () => {
    const onChange = await renderConnection({ provider: 'facebook' });
    expect(document.body.textContent).toContain('Authenticate');
    await post({ _sign: AUTH_MESSAGE_SIGN, encTokens: 'v1.sealed', profile: { name: 'Fiona' } });
    expect(onChange).toHaveBeenCalledWith({
      provider: 'facebook',
      encTokens: 'v1.sealed',
      profile: { name: 'Fiona' },
      serviceStatus: 'connected',
    });
  });

  it('shows why the pop-up failed', async () => {
    const onChange = await renderConnection({ provider: 'facebook' });
    await post({ _sign: AUTH_MESSAGE_SIGN, error: 'The provider did not answer as expected' });
    expect(document.body.textContent).toContain('The provider did not answer as expected');
    expect(onChange).not.toHaveBeenCalled();
  });

  it('ignores messages without the signature or from another origin', async () => {
    const onChange = await renderConnection({ provider: 'facebook' });
    await post({ _sign: 'something-else', encTokens: 'v1.sealed', profile: {} });
    await post({ encTokens: 'v1.sealed', profile: {} });
    await post({ _sign: AUTH_MESSAGE_SIGN, encTokens: 'v1.sealed', profile: {} }, 'https://evil.example');
    expect(onChange).not.toHaveBeenCalled();
  });

  it("shows 'Connected as' with Re-authenticate and Delete Service once connected", async () => {
    await renderConnection({ provider: 'x', encTokens: 'v1.sealed', profile: { name: 'Xavier X' } });
    const text = document.body.textContent ?? '';
    expect(text).toContain('Connected as Xavier X');
    expect(text).toContain('Re-authenticate');
    expect(text).toContain('Delete Service');
    expect(text).not.toMatch(/(^|[^-])Authenticate/);
  });

  it('disables Authenticate for a provider the server has no client id for, naming the setting to a manager', async () => {
    await renderConnection({ provider: 'facebook' }, { providers: ['x'], isManager: true });
    expect(screen.getByRole('button', { name: 'Authenticate' })).toBeDisabled();
    expect(screen.getByTestId('service-status').textContent).toContain('Service not configured');
    expect(screen.getByTestId('setting-hint').textContent).toBe('Server setting: FACEBOOK_CLIENT_ID');
  });

  it('tells an editor to ask a workspace manager, without the setting', async () => {
    await renderConnection({ provider: 'google-ads' }, { providers: ['facebook'], isManager: false });
    expect(screen.getByRole('button', { name: 'Authenticate' })).toBeDisabled();
    expect(screen.getByTestId('setting-hint').textContent).toBe('Ask a workspace manager');
    expect(document.body.textContent).not.toContain('GOOGLE_ADS_CLIENT_ID');
  });

  it('keeps Authenticate enabled for a configured provider', async () => {
    await renderConnection({ provider: 'facebook' }, { providers: ['facebook'], isManager: true });
    expect(screen.getByRole('button', { name: 'Authenticate' })).toBeEnabled();
    expect(screen.queryByTestId('service-status')).toBeNull();
  });
});
