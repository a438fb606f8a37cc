import type { Workspace } from '@shared/api/workspaces';
import { installFakeApi, type FakeApi } from '@web/test/fake-api';
import { releaseAnswer } from '@web/test/release-fixtures';
import { findByText, waitFor } from '@web/test/render';
import { button, queryButton, renderUi } from '@web/components/item-form/test-utils';
import { ScheduleNotice } from './schedule-notice';

const workspace = { id: 'acme', basics: { stages: ['Live'] } } as unknown as Workspace;
const member = (userId: string, displayName: string) => ({
  userId,
  email: `${userId}@example.com`,
  displayName,
  active: true,
  roles: [],
  isWorkspaceManager: false,
});
const cleared = releaseAnswer({
  publishAt: '2027-09-01T07:00:00.000Z',
  publishAtTz: 'Europe/Paris',
  scheduleStatus: 'cleared',
  scheduledBy: 'ada',
  lastError:
    'Bo Blogger changed this release after Ada Manager scheduled it, so it does not publish until it is scheduled again',
});

let api: FakeApi;
beforeEach(() => {
  api = installFakeApi({
    'GET /api/v1/workspaces/acme/members': () => [
      200,
      { members: [member('ada', 'Ada Manager'), member('bo', 'Bo Blogger')], invitations: [] },
    ],
    'PATCH /api/v1/workspaces/acme/releases/r1': (body) => [
      200,
      { ...cleared, ...(body as object), scheduleStatus: 'pending', lastError: null },
    ],
  });
});
afterEach(() => vi.unstubAllGlobals());

const show = (canChange: boolean) =>
  renderUi(
    <ScheduleNotice
      workspace={workspace}
      release={cleared}
      canChange={canChange}
      canPublishNow={false}
      onPublishNow={() => {}}
    />,
  );

describe('ScheduleNotice', () => {
  // A change by someone else cleared a schedule without the release screen saying so or who is to schedule it again.
  it('says who changed a cleared release and who must schedule it again', async () => {
    await show(false);
    await findByText(
      'Bo Blogger changed this release after Ada Manager scheduled it, so it does not publish until it is scheduled again. ' +
        'Ada Manager must schedule it again for Wed Sep 1st, 2027 9:00 AM (Europe/Paris).',
    );
    expect(document.body.textContent).toContain('The schedule was cleared');
    // A member who may not publish all of it is not offered to schedule it.
    expect(queryButton('Schedule again')).toBeNull();
  });

  it('schedules it again at its time, for a member who may publish all of it', async () => {
    await show(true);
    await findByText(/Ada Manager must schedule it again/);
    button('Schedule again').click();
    await waitFor(() =>
      expect(api.calls.find((c) => c.method === 'PATCH')?.body).toEqual({
        publishAt: '2027-09-01T07:00:00.000Z',
        publishAtTz: 'Europe/Paris',
        updatedAt: cleared.updatedAt,
      }),
    );
  });
});
