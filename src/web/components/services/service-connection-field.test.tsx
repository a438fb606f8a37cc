import { act } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { AUTH_MESSAGE_SIGN } from '@shared/api/services';
import { renderUi } from '../item-form/test-utils';
import type { FieldProps } from '../fields/types';
import { ServiceConnectionField } from './service-connection-field';

async function renderConnection(value: unknown) {
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
  await renderUi(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <ServiceConnectionField {...props} />
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
});
