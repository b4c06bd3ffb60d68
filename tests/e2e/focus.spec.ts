import { expect, test } from '@playwright/test';
import { expectFocusNeverObscured, PHONE, PUBLIC_PAGES } from './support';

/**
 * Focus not obscured (WCAG 2.2, 2.4.11) on a phone: walking the focus forwards and backwards
 * through every public page, no focused element ends up under the sticky header (issue 31: tabbing
 * backwards through / and /contact hid the footer's social links under it). The back office's walk
 * is in admin/focus.spec.ts.
 */
test.use({ viewport: PHONE });

for (const p of PUBLIC_PAGES) {
  test(`${p.path}: on a phone, the focus stays clear of the sticky header both ways`, async ({ page }) => {
    await page.goto(p.path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(p.h1.fr);
    const forwards = await expectFocusNeverObscured(page, 'Tab');
    const backwards = await expectFocusNeverObscured(page, 'Shift+Tab');
    // Both walks went through the same elements, the header's and the footer's.
    expect([...backwards].sort()).toEqual([...forwards].sort());
  });
}
