import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { fakeSocialEnv } from './tests/fixtures/fake-social';

// E2E_PORT lets several checkouts run their end-to-end suites side by side.
const PORT = Number(process.env.E2E_PORT ?? 8090);
const BASE_URL = `http://127.0.0.1:${PORT}`;
// A stand-in Nominatim geocoder for the address field (e2e/fake-geocoder.ts), next to the app's port.
const GEOCODER_PORT = PORT + 1000;
// A stand-in for the six providers of service connections (e2e/fake-social.ts).
const SOCIAL_PORT = PORT + 1100;
// Past every checkout's geocoder port (PORT + 1000), so neighbouring E2E_PORTs never collide.
const VISUALISATION_PORT = PORT + 2000;
// The sending spec's DNS server (tests/fixtures/dns-server.ts; e2e/fixtures.ts DNS_PORT): UDP, so it
// shares the number with the visualisation's TCP port. Nothing listens there otherwise.
const DNS_PORT = VISUALISATION_PORT;

// One fresh data directory per run; the specs read mail from its outbox. The config is evaluated again
// in each worker, so the directory made by the main process is handed on through the environment.
if (!process.env.MARQUEE_E2E_DATA_DIR) {
  process.env.MARQUEE_E2E_DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-e2e-'));
}
const DATA_DIR = process.env.MARQUEE_E2E_DATA_DIR;

const chromium = {
  ...devices['Desktop Chrome'],
  viewport: { width: 1360, height: 860 },
  launchOptions: {
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  },
};
const PWA_SPEC = /pwa\.spec\.ts$/;
const WORKERS = Number(process.env.E2E_WORKERS ?? 1);

export default defineConfig({
  testDir: './e2e',
  forbidOnly: !!process.env.CI,
  // E2E_RETRIES (CI sets 1): a spec that failed runs once more; a pass then is reported as flaky.
  retries: Number(process.env.E2E_RETRIES ?? 0),
  // Every spec signs up its own users and workspaces through the API, so files can run side by side
  // (E2E_WORKERS sets how many); the tests of one file stay in order in one worker (some seed in beforeAll).
  workers: WORKERS,
  fullyParallel: false,
  // Generous on purpose: on a machine shared with busy neighbours a spec that takes 25 s alone can take
  // three times that, and an assertion's wait is only spent when the page is slow.
  timeout: 120_000,
  expect: { timeout: 20_000 },
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    baseURL: BASE_URL,
    // The server refuses cookie-authenticated writes without its own Origin; browsers send one, API
    // request contexts do not.
    extraHTTPHeaders: { origin: BASE_URL },
    // The app's service worker would answer requests page.route() cannot see; specs about it allow it.
    serviceWorkers: 'block',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    headless: true,
    viewport: { width: 1360, height: 860 },
    // Without transitions a click lands where the button is: a dialog still growing moved its button
    // between the press and the release, and the click went to neither.
    reducedMotion: 'reduce',
  },
  projects: [
    { name: 'chromium', testIgnore: PWA_SPEC, use: chromium },
    // The PWA spec deploys a rebuilt app into the served build (dist/web) and restores it afterwards;
    // with more than one worker it runs after every other spec, so no other page loads the swapped build
    // (Playwright then runs the whole chromium project first, file filters or not; --no-deps skips it).
    { name: 'pwa', testMatch: PWA_SPEC, dependencies: WORKERS > 1 ? ['chromium'] : [], use: chromium },
  ],
  webServer: [
    {
      command: `npx tsx e2e/fake-geocoder.ts ${GEOCODER_PORT} ${VISUALISATION_PORT}`,
      url: `http://127.0.0.1:${GEOCODER_PORT}/status`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: `npx tsx e2e/fake-social.ts ${SOCIAL_PORT}`,
      url: `http://127.0.0.1:${SOCIAL_PORT}/status`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: `"${process.execPath}" scripts/start.mjs`,
      url: `${BASE_URL}/healthz`,
      reuseExistingServer: false,
      timeout: 180_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(PORT),
        HOST: '127.0.0.1',
        DATA_DIR,
        PUBLIC_URL: BASE_URL,
        GEOCODER_URL: `http://127.0.0.1:${GEOCODER_PORT}`,
        // The webhook spec's receiver listens on 127.0.0.1; the job worker looks for due work often.
        WEBHOOK_ALLOW_PRIVATE: '1',
        JOBS_POLL_MS: '250',
        // Every spec signs its users up and in from 127.0.0.1: at full speed the suite makes more than the
        // default 20 auth requests a minute from that one address. The limit itself is tested in
        // tests/integration/auth.test.ts and auth-hardening.test.ts.
        AUTH_RATE_LIMIT: '1000',
        ...fakeSocialEnv(`http://127.0.0.1:${SOCIAL_PORT}`),
        VISUALISATION_URL: `http://127.0.0.1:${VISUALISATION_PORT}/report`,
        VISUALISATION_HEADER: 'X-Report-Key: e2e-key',
        DNS_SERVERS: `127.0.0.1:${DNS_PORT}`,
        // A message a second, so the campaigns spec can watch a send of three recipients go.
        CAMPAIGN_RATE_SMTP: '1',
      },
    },
  ],
});
