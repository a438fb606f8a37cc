import { sql } from 'drizzle-orm';
import { migrateDatabase, rows } from '@server/db/migrate';
import { findRecipientSettings } from '@server/senders/repository';
import { migrateUpTo, openTestDatabase, type TestDatabase } from '../helpers/database';

/**
 * Migration 0031 keeps the workspaces that exist already mailing profiles whose consent is unknown,
 * as they did (with a postal address or without); a workspace made after it does not mail them.
 */
let database: TestDatabase;

beforeAll(async () => {
  database = await openTestDatabase({ migrate: false });
  await migrateUpTo(database, 30);
  await database.db.execute(sql`
    insert into workspaces (id, name, basics, roles, subscription, created_by) values
      ('old-with-address', 'a', '{}', '{}', '{"plan": "free"}', 'someone'),
      ('old-without', 'b', '{}', '{}', '{"plan": "free"}', 'someone')`);
  await database.db.execute(sql`
    insert into sending_settings (workspace_id, postal_address, updated_at, updated_by)
    values ('old-with-address', '1 Main St', now(), 'someone')`);
  await migrateDatabase(database);
  await database.db.execute(sql`
    insert into workspaces (id, name, basics, roles, subscription, created_by)
    values ('new', 'c', '{}', '{}', '{"plan": "free"}', 'someone')`);
});
afterAll(() => database.close());

test('existing workspaces keep mailing unknown consent; a new one does not', async () => {
  // Every workspace would have stopped mailing unknown consent the day the setting arrived.
  const expected = { emailAttribute: 'email', mailUnknownConsent: true };
  expect(await findRecipientSettings(database.db, 'old-with-address')).toEqual(expected);
  expect(await findRecipientSettings(database.db, 'old-without')).toEqual(expected);
  expect(await findRecipientSettings(database.db, 'new')).toEqual({ ...expected, mailUnknownConsent: false });
  const [address] = rows<{ postal_address: string }>(
    await database.db.execute(
      sql`select postal_address from sending_settings where workspace_id = 'old-with-address'`,
    ),
  );
  expect(address?.postal_address).toBe('1 Main St');
});
