// `npm test`: unit, component and integration tests (Vitest), then end-to-end tests (Playwright in
// Chromium). Suites that cannot run on this machine are skipped and named. Ends with `N passed, N failed`.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { playwrightFailures, vitestFailures } from './test-failures.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// The tests run on the project's runtime (the major in .nvmrc, which `npm install` puts in
// node_modules/.bin), never on whatever else is on the PATH. Every suite below inherits this process's.
const runtimeMajor = fs.readFileSync(path.join(root, '.nvmrc'), 'utf8').trim().split('.')[0];
if (process.versions.node.split('.')[0] !== runtimeMajor) {
  console.error(
    `npm test runs on Node ${runtimeMajor}, but this is Node ${process.versions.node} (${process.execPath}). ` +
      'Run it through npm, which finds node_modules/.bin/node first, or put a Node ' +
      `${runtimeMajor} first on the PATH.`,
  );
  console.log('0 passed, 1 failed');
  process.exit(1);
}
console.log(`Node ${process.versions.node} (${process.execPath})`);
const resultsDir = path.join(root, 'test-results');
fs.mkdirSync(resultsDir, { recursive: true });
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const totals = { passed: 0, failed: 0, skipped: 0 };
const skippedSuites = [];
/** The failures, named again at the end: a long run's log is often read from its tail. */
const failures = [];
let runnerFailed = false;

function run(label, args, env = {}) {
  console.log(`\n▶ ${label}`);
  const result = spawnSync(process.execPath, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  if (result.status !== 0) runnerFailed = true;
  return result.status;
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

// 1. Vitest: unit, web components, integration on PGlite and (with TEST_DATABASE_URL) on PostgreSQL.
if (!process.env.TEST_DATABASE_URL)
  skippedSuites.push('integration tests on PostgreSQL (TEST_DATABASE_URL is not set)');
const vitestJson = path.join(resultsDir, 'vitest.json');
fs.rmSync(vitestJson, { force: true });
run('Vitest: unit, component and integration tests', [
  'node_modules/vitest/vitest.mjs',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${vitestJson}`,
]);
const vitest = readJson(vitestJson);
if (vitest) {
  totals.passed += vitest.numPassedTests;
  totals.failed += vitest.numFailedTests;
  totals.skipped += vitest.numPendingTests + vitest.numTodoTests;
  failures.push(...vitestFailures(vitest, root));
} else {
  console.error('Vitest wrote no results');
  totals.failed += 1;
}

// 2. Playwright end-to-end in Chromium.
if (fs.existsSync(chromium) && process.env.SKIP_E2E !== '1') {
  const playwrightJson = path.join(resultsDir, 'playwright.json');
  fs.rmSync(playwrightJson, { force: true });
  run(
    'Playwright: end-to-end tests in Chromium',
    ['node_modules/@playwright/test/cli.js', 'test', '--reporter=list,json'],
    {
      PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson,
      CHROMIUM_PATH: chromium,
      // One spec file at a time on two cores: a second browser competes with the server (a clean run took
      // 18.2 min with two workers, 11-17 with one). More cores: raise E2E_WORKERS.
      E2E_WORKERS: process.env.E2E_WORKERS ?? '1',
    },
  );
  const report = readJson(playwrightJson);
  const stats = report?.stats;
  if (stats) {
    failures.push(...playwrightFailures(report.suites));
    totals.passed += stats.expected + stats.flaky;
    totals.failed += stats.unexpected;
    totals.skipped += stats.skipped;
  } else {
    console.error('Playwright wrote no results');
    totals.failed += 1;
  }
} else {
  skippedSuites.push(
    `end-to-end tests (${process.env.SKIP_E2E === '1' ? 'SKIP_E2E=1' : `no Chromium at ${chromium}`})`,
  );
}

console.log('');
if (failures.length > 0) {
  console.log('Failed:');
  for (const failure of failures) console.log(`  ${failure}`);
}
for (const suite of skippedSuites) console.log(`Skipped: ${suite}`);
if (runnerFailed && totals.failed === 0) totals.failed = 1;
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 ? 1 : 0);
