import { test } from '@playwright/test';
import { expectFocusNeverObscured, PHONE } from '../support';
import { DIALECTS, createAccount, serverForSuite, signIn } from './server';

/**
 * Focus not obscured (WCAG 2.2, 2.4.11) in the back office on a phone: walking the focus both ways
 * through a long screen (a page's editor) and the dashboard, every focused element is what the
 * screen shows at its place (the public pages' walk: ../focus.spec.ts).
 */
for (const dialect of DIALECTS) {
  test.describe(`focus walk in the back office on ${dialect}`, () => {
    test.use({ viewport: PHONE });
    const server = serverForSuite(dialect, () => ({}), async (s) => {
      await createAccount(s.db, 'Admin', 'alice@example.org');
    });

    for (const path of ['/admin/dashboard', '/admin/pages/edit/about']) {
      test(`${path}: on a phone, no focused element is covered, Tab and Shift+Tab`, async ({ page }) => {
        await signIn(page, server.baseURL, 'alice@example.org');
        await page.goto(`${server.baseURL}${path}`);
        await expectFocusNeverObscured(page, 'Tab');
        await expectFocusNeverObscured(page, 'Shift+Tab');
      });
    }
  });
}
