import { defineConfig } from 'vitest/config';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

const alias = {
  '@shared': fileURLToPath(new URL('./src/shared', import.meta.url)),
  '@server': fileURLToPath(new URL('./src/server', import.meta.url)),
  '@web': fileURLToPath(new URL('./src/web', import.meta.url)),
  '@tests': fileURLToPath(new URL('./tests', import.meta.url)),
};

const integration = (name: string, env: Record<string, string>) => ({
  resolve: { alias },
  test: {
    name,
    globals: true,
    environment: 'node',
    include: ['tests/integration/**/*.test.ts'],
    env,
    // Migrates one database per run that every test file copies.
    globalSetup: ['tests/helpers/template-database.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Files share one module graph per worker: each builds its own app on its own database, and importing
    // the server once per worker instead of once per file halves the run.
    isolate: false,
  },
});

const databases = [integration('integration-pglite', { MARQUEE_TEST_DB: 'pglite' })];
if (process.env.TEST_DATABASE_URL) {
  databases.push(integration('integration-postgres', { MARQUEE_TEST_DB: 'postgres' }));
}

export default defineConfig({
  resolve: { alias },
  test: {
    // Vitest's default leaves a core free: on two cores one worker ran every file of every project in turn.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          globals: true,
          environment: 'node',
          include: [
            'src/shared/**/*.test.ts',
            'src/server/**/*.test.ts',
            'eslint-rules/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
        },
      },
      {
        resolve: { alias },
        define: { __MARQUEE_BUILD__: JSON.stringify('test') },
        test: {
          name: 'web',
          globals: true,
          environment: 'jsdom',
          include: ['src/web/**/*.test.{ts,tsx}'],
          setupFiles: ['src/web/test/setup.ts'],
          // Form tests render whole editors in jsdom; on a busy 2-core machine some take over 5 s.
          testTimeout: 20_000,
          // jsdom is still set up per file; only the imports (React, Mantine) are shared per worker.
          isolate: false,
        },
      },
      ...databases,
    ],
  },
});
