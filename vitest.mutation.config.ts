import { defineConfig } from 'vitest/config';
import base from './vitest.config';

/**
 * Vitest for mutation testing (`npm run test:mutation`, ADR 011): only the unit and integration
 * files that exercise the mutated modules, on SQLite (Stryker runs each mutant against the tests
 * that cover it; PostgreSQL adds time, not killing power, for these modules).
 * tests/integration/admin-guard.test.ts starts the runtime without the product's hooks (no
 * seeding): it imports the back office's gate (app/routes/admin/auth.server.ts) and the users'
 * session and throttle modules only, and its start is short on SQLite.
 */
// Spread, not mergeConfig: mergeConfig would add this list to the base's instead of replacing it.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: [
      'tests/unit/csv.test.ts',
      'tests/unit/donor-email.test.ts',
      'tests/unit/donations-money.test.ts',
      'tests/unit/money-edges.test.ts',
      'tests/unit/donation-statuses.test.ts',
      'tests/unit/donation-filters.test.ts',
      'tests/unit/html-cache.test.ts',
      'tests/unit/secret-box.test.ts',
      'tests/unit/permissions-and-auth.test.ts',
      'tests/unit/permissions-paths.test.ts',
      'tests/unit/contact-and-sanitize.test.ts',
      'tests/unit/receipts-words.test.ts',
      'tests/unit/campaigns.test.ts',
      'tests/unit/campaign-form.test.ts',
      'tests/unit/giving-form.test.ts',
      'tests/unit/sanitize-memo.test.ts',
      'tests/integration/donations.test.ts',
      'tests/integration/ledger.test.ts',
      'tests/integration/payment-settings.test.ts',
      'tests/integration/donations-paypal-flutterwave.test.ts',
      'tests/integration/donations-verification.test.ts',
      'tests/integration/campaigns.test.ts',
      'tests/integration/campaign-editorial.test.ts',
      'tests/integration/campaign-revisions.test.ts',
      'tests/integration/receipts.test.ts',
      'tests/integration/receipt-pdf.test.ts',
      'tests/integration/receipt-register.test.ts',
      'tests/integration/receipt-mail.test.ts',
      'tests/integration/donor-space.test.ts',
      'tests/integration/donor-monthly.test.ts',
      'tests/integration/donor-receipts.test.ts',
      'tests/integration/users-and-sessions.test.ts',
      'tests/integration/admin-guard.test.ts',
      'tests/integration/hardening.test.ts',
      'tests/integration/messages-and-limits.test.ts',
      'tests/integration/rate-limit.test.ts',
      'tests/integration/coingate-provider.test.ts',
      'tests/integration/stripe-provider.test.ts',
      'tests/integration/flutterwave-provider.test.ts',
      'tests/integration/paypal-provider.test.ts',
      'tests/integration/provider-fetch.test.ts',
      'tests/unit/donor-mentions.test.ts',
      'tests/unit/password-dummy.test.ts',
      'tests/integration/donor-routes.test.ts',
      'tests/integration/campaign-gift-routes.test.ts',
      'tests/integration/admin-donations-list.test.ts',
      'tests/integration/flutterwave-callback.test.ts',
      'tests/integration/trusted-origin.test.ts',
      'tests/unit/membership-period.test.ts',
      'tests/unit/membership-status.test.ts',
      'tests/unit/membership-reminders.test.ts',
      'tests/integration/membership-dues-pipeline.test.ts',
      'tests/integration/membership-join-hosted.test.ts',
      'tests/integration/membership-manual-dues.test.ts',
      'tests/unit/membership-report.test.ts',
      'tests/unit/membership-retention.test.ts',
      'tests/unit/subscriber-consent.test.ts',
      'tests/unit/letter-rules.test.ts',
      'tests/integration/subscribers.test.ts',
      'tests/integration/subscriber-routes.test.ts',
      'tests/integration/letters-queue.test.ts',
      'tests/integration/mail-webhook.test.ts',
      'tests/integration/mail-inbound.test.ts',
    ],
    env: { TEST_DATABASE_URL: '' },
  },
});
