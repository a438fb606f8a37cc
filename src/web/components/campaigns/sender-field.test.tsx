import { MemoryRouter, Route, Routes } from 'react-router';
import type { SendingSettings } from '@shared/api/senders';
import { BUILT_IN_MODEL } from '@shared/model/registry';
import type { FieldDef } from '@shared/schemas/types';
import { installFakeApi, type FakeApi } from '@web/test/fake-api';
import { findByText, waitFor } from '@web/test/render';
import { renderField } from '../fields/field-test-harness';
import { bodyText, byLabel, pickOption, renderUi } from '../item-form/test-utils';
import type { FieldProps } from '../fields/types';
import { SenderField } from './sender-field';

const field = BUILT_IN_MODEL.schema('campaign')!.fields.find((entry) => entry.key === 'sender') as FieldDef;
const SENDERS = '/api/v1/workspaces/acme/senders';

const settings = (overrides: Partial<SendingSettings> = {}): SendingSettings => ({
  senders: [
    {
      id: 's-news',
      fromName: 'Acme News',
      fromAddress: 'news@acme.io',
      replyTo: null,
      domain: 'acme.io',
      createdAt: '2026-11-01T10:00:00.000Z',
    },
    {
      id: 's-deals',
      fromName: 'Acme Deals',
      fromAddress: 'deals@deals.example',
      replyTo: null,
      domain: 'deals.example',
      createdAt: '2026-11-02T10:00:00.000Z',
    },
  ],
  domains: [
    {
      domain: 'acme.io',
      selector: 'marquee-a',
      verified: true,
      verifiedAt: null,
      checkedAt: null,
      problems: [],
      records: [],
    },
    {
      domain: 'deals.example',
      selector: 'marquee-b',
      verified: false,
      verifiedAt: null,
      checkedAt: null,
      problems: [],
      records: [],
    },
  ],
  postalAddress: '',
  recipients: { emailAttribute: 'email', mailUnknownConsent: false },
  canManage: true,
  ...overrides,
});

let api: FakeApi;
beforeEach(() => {
  api = installFakeApi({ [`GET ${SENDERS}`]: () => [200, settings()] });
});
afterEach(() => vi.unstubAllGlobals());

async function renderSender(value: unknown, readOnly = false) {
  const onChange = vi.fn();
  const props = {
    field,
    value,
    scope: { sender: value },
    onChange,
    onPatch: () => {},
    readOnly,
    errors: {},
    path: 'sender',
    inputId: 'sender-input',
  } as FieldProps;
  await renderUi(
    <MemoryRouter initialEntries={['/acme/marketing/campaign/c1']}>
      <Routes>
        <Route path="/:workspace/*" element={<SenderField {...props} />} />
      </Routes>
    </MemoryRouter>,
  );
  return onChange;
}

describe('sender field', () => {
  it("offers the workspace's senders as name and address, marking unverified domains, and picks one", async () => {
    const onChange = await renderSender('');
    const input = await waitFor(() => byLabel('Sender'));
    await pickOption(input, 'Acme Deals <deals@deals.example>not verified: likely spam');
    expect(onChange).toHaveBeenCalledWith('s-deals');
    const options = Array.from(document.querySelectorAll('[role="option"]')).map((o) => o.textContent);
    expect(options).toContain('Acme News <news@acme.io>');
  });

  it('says a chosen sender of an unverified domain will likely land in spam', async () => {
    await renderSender('s-deals');
    await waitFor(() => expect(byLabel('Sender').value).toBe('Acme Deals <deals@deals.example>'));
    expect(bodyText()).toContain('Not verified: Mail from this sender will likely land in spam');
  });

  it('links to Settings › Sending when the workspace has no sender', async () => {
    api.routes[`GET ${SENDERS}`] = () => [200, settings({ senders: [], domains: [] })];
    await renderSender('');
    const link = await findByText('Add one in Settings › Sending');
    expect(link.closest('a')?.getAttribute('href')).toBe('/acme/_settings/sending');
  });

  it('names a chosen sender that was deleted since', async () => {
    await renderSender('s-gone');
    await findByText("The campaign's sender no longer exists; choose another in the campaign");
  });

  it('reads the sender with its mark in view mode', async () => {
    await renderSender('s-deals', true);
    await findByText('Acme Deals <deals@deals.example>');
    expect(bodyText()).toContain('not verified: likely spam');
    await renderSender('s-news', true);
    await findByText('Acme News <news@acme.io>');
  });
});

describe('sender display without the editor', () => {
  it('shows the id outside a workspace and a dash when empty', async () => {
    await renderField(field, { sender: 's-news' }, { readOnly: true });
    expect(bodyText()).toBe('s-news');
    expect(api.calls).toHaveLength(0);
  });
});
