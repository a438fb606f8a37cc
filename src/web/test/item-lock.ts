import type { FakeHandler } from './fake-api';

/** This tab's key, as the tests' stream tells it in its `ready` event. */
export const THIS_TAB_KEY = 'key-of-this-tab';

/** The API's answers about an item's edit lock (at `itemPath`): nobody holds it, and this tab takes it. */
export const freeLockRoutes = (itemPath: string): Record<string, FakeHandler> => ({
  [`GET ${itemPath}/lock`]: () => [200, { lock: null }],
  [`PUT ${itemPath}/lock`]: () => [
    200,
    {
      lock: {
        userId: 'u1',
        name: 'Ada',
        key: THIS_TAB_KEY,
        takenAt: '2026-01-02T10:00:00.000Z',
        expiresAt: '2099-01-01T00:00:00.000Z',
      },
    },
  ],
});
