import path from 'node:path';
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { DatabaseTooNewError, migrateDatabase } from './db/migrate';
import { buildApp } from './app';

async function main() {
  const config = loadConfig();
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    readDatabaseUrl: config.databaseReadUrl,
    pgliteDir: path.join(config.dataDir, 'db'),
  });
  try {
    await migrateDatabase(database);
  } catch (err) {
    if (err instanceof DatabaseTooNewError) {
      console.error(err.message);
      await database.close();
      process.exit(1);
    }
    throw err;
  }
  const app = await buildApp({ config, db: database.db, readDb: database.readDb });
  const stop = async () => {
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    `Marquee is ready on http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port} (${database.kind})`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
