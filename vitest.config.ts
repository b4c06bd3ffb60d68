import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: {
      '~': fileURLToPath(new URL('./app', import.meta.url)),
      '~db': fileURLToPath(new URL('./db', import.meta.url)),
    },
  },
  test: {
    include: ['app/**/*.test.{ts,tsx}', 'db/**/*.test.ts', 'server/**/*.test.ts', 'tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts'],
    environment: 'node',
    // What follows a payment, registered as server/runtime-hooks.ts registers it in every process.
    setupFiles: ['tests/support/payment-subscribers.ts'],
    // One migrated database per dialect per run, copied by each data-layer test (ADR 041).
    globalSetup: ['tests/support/db-templates.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Data-layer suites create their own databases; files run in parallel workers.
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: one on the 2-core CI machine, which then
    // waited on PostgreSQL and on child processes with a core idle (9 min; 6 with three, ADR 041).
    maxWorkers: 3,
  },
});
