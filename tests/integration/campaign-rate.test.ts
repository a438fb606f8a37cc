import { claimSendingTime } from '@server/campaigns/repository';
import { openTestDatabase, type TestDatabase } from '../helpers/database';

let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

describe("a provider's sending time", () => {
  it('is claimed in turn, so every process together keeps to the rate', async () => {
    expect(await claimSendingTime(database.db, 'smtp', 10)).toBe(0);
    // The next claim starts where the first ends, ten seconds on (less the moments between the two).
    const next = await claimSendingTime(database.db, 'smtp', 10);
    expect(next).toBeGreaterThan(5_000);
    expect(next).toBeLessThanOrEqual(10_000);
    const third = await claimSendingTime(database.db, 'smtp', 1);
    expect(third).toBeGreaterThan(next);
    // Each provider has its own.
    expect(await claimSendingTime(database.db, 'sendgrid', 10)).toBe(0);
  });
});
