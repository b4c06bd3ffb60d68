import { defineConfig } from 'vitest/config';
import base from './vitest.config';

/**
 * Vitest for mutation testing (`npm run test:mutation`, ADR 011): only the unit and integration
 * files that exercise the mutated modules, on SQLite (Stryker runs each mutant against the tests
 * that cover it; PostgreSQL adds time, not killing power, for these modules). Not
 * tests/integration/admin-guard.test.ts: it starts the whole runtime (seeding included), which
 * imports nearly every module, so every mutant would pay for that start.
 */
// Spread, not mergeConfig: mergeConfig would add this list to the base's instead of replacing it.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: [
      'tests/unit/csv.test.ts',
      'tests/unit/donations-money.test.ts',
      'tests/unit/money-edges.test.ts',
      'tests/unit/donation-statuses.test.ts',
      'tests/unit/donation-filters.test.ts',
      'tests/unit/html-cache.test.ts',
      'tests/unit/secret-box.test.ts',
      'tests/unit/permissions-and-auth.test.ts',
      'tests/unit/permissions-paths.test.ts',
      'tests/unit/contact-and-sanitize.test.ts',
      'tests/integration/donations.test.ts',
      'tests/integration/donations-paypal-flutterwave.test.ts',
      'tests/integration/donations-verification.test.ts',
      'tests/integration/users-and-sessions.test.ts',
      'tests/integration/messages-and-limits.test.ts',
      'tests/integration/rate-limit.test.ts',
      'tests/integration/coingate-provider.test.ts',
      'tests/integration/flutterwave-provider.test.ts',
      'tests/integration/paypal-provider.test.ts',
      'tests/integration/provider-fetch.test.ts',
    ],
    env: { TEST_DATABASE_URL: '' },
  },
});
