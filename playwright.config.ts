import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

/**
 * End-to-end tests drive a real Chromium against the built server, started on its own port with a
 * fresh data directory (so the default content is seeded anew). Debian's Chromium is used where
 * Playwright's own browsers cannot be downloaded.
 */
const port = Number(process.env.E2E_PORT ?? 3111);
// A new data directory per run (workers inherit the runner's environment, so all agree on it).
process.env.E2E_DATA_DIR ??= path.join(os.tmpdir(), `thv-e2e-${Date.now()}`);
export const E2E_DATA_DIR = process.env.E2E_DATA_DIR;
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  // In CI, three workers on the 2-core machine: a journey waits on its server and on Chromium as
  // much as it computes. One took some 45 minutes (stop 49), two 20 to 35, three 14 on a machine
  // loaded by other work as well (ADR 041).
  workers: process.env.CI ? 3 : undefined,
  retries: 0,
  // A test's time limit is a guard against a hang, not a speed target (benchmarks measure speed):
  // on a loaded 2-core machine the whole suite took three times as long and five long journeys
  // crossed 30 s, so each has a minute.
  timeout: 60_000,
  reporter: [['list'], ['json', { outputFile: '.test-output/e2e.json' }]],
  use: {
    baseURL: `http://localhost:${port}`,
    locale: 'fr-FR',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: chromium,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], locale: 'fr-FR' } }],
  webServer: {
    command: 'node scripts/start.js',
    url: `http://localhost:${port}/healthz`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: E2E_DATA_DIR,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      CONTACT_RATE_LIMIT: '1000',
      NODE_ENV: 'production',
      // One process: the cache tests observe one process's page cache (the cluster: ops/cluster.spec.ts).
      WEB_CONCURRENCY: '1',
    },
  },
});
