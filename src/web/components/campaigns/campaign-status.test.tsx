import { screen } from '@testing-library/react';
import type { CampaignStatus } from '@shared/api/campaigns';
import { installFakeApi } from '@web/test/fake-api';
import { waitFor } from '@web/test/render';
import { renderUi } from '../item-form/test-utils';
import { CampaignStatusBadge } from './campaign-status';

const status = (overrides: Partial<CampaignStatus>): CampaignStatus => ({
  campaignId: 'c1',
  status: 'sent',
  sendAt: null,
  decideAt: null,
  recipients: 0,
  sent: 0,
  unconfirmed: 0,
  sends: 0,
  ...overrides,
});

beforeEach(() => {
  installFakeApi({
    'GET /api/v1/workspaces/acme/campaigns/statuses': () => [
      200,
      {
        statuses: [
          status({ campaignId: 'sent', recipients: 156, sent: 150, unconfirmed: 2, sends: 2 }),
          status({ campaignId: 'later', status: 'scheduled', sendAt: '2099-03-01T14:00:00.000Z' }),
          status({ campaignId: 'going', status: 'sending', recipients: 78, sent: 40 }),
          status({
            campaignId: 'ab',
            status: 'testing',
            decideAt: '2099-03-02T09:00:00.000Z',
            recipients: 40,
            sent: 40,
            sends: 2,
          }),
        ],
      },
    ],
  });
});

const shown = async (campaignId: string) => {
  await renderUi(<CampaignStatusBadge workspaceId="acme" campaignId={campaignId} />);
  return (await waitFor(() => screen.getByTestId('campaign-status'))).textContent;
};

describe('a campaign status in a list', () => {
  // Broke: the campaign list showed no status: nobody could tell a sent campaign from a draft.
  it('says sent, with the sent of recipients over its sends', async () => {
    expect(await shown('sent')).toBe('sent150 of 156 sent, 2 unconfirmed over 2 sends');
  });

  it('says scheduled with its time', async () => {
    expect(await shown('later')).toMatch(/^scheduled.*2099/);
  });

  it('says sending with its progress', async () => {
    expect(await shown('going')).toBe('sending40 of 78 sent');
  });

  it('says testing while an A/B test waits, with when it picks its winner', async () => {
    expect(await shown('ab')).toMatch(/^testing40 of 40 sent over 2 sends; winner picked .*2099/);
  });

  it('says draft for a campaign never sent', async () => {
    expect(await shown('never')).toBe('draft');
  });
});
