import { expect, test } from '@playwright/test';

test('French by default, then the language menu leads to the same page at its English address, and links stay in English', async ({ page, context }) => {
  await page.goto('/a-propos');
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  await page.getByTestId('language-menu').locator('summary').click();
  await page.getByRole('link', { name: 'English' }).click();
  await expect(page).toHaveURL(/\/en\/a-propos$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('About the foundation');
  // The page's links lead to the English pages: the language is in the address, not a cookie.
  await page.getByRole('banner').getByRole('link', { name: 'Partners' }).click();
  await expect(page).toHaveURL(/\/en\/partenaires$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Our partners');
  expect(await context.cookies()).toEqual([]);
  await page.getByTestId('language-menu').locator('summary').click();
  await page.getByRole('link', { name: 'Español' }).click();
  await expect(page).toHaveURL(/\/es\/partenaires$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Nuestros socios');
  await page.getByTestId('language-menu').locator('summary').click();
  await page.getByRole('link', { name: 'Français' }).click();
  await expect(page).toHaveURL(/\/partenaires$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Nos partenaires');
});

test('an English page links only to English pages (and to what is not a page: the back office, files)', async ({ page }) => {
  for (const path of ['/en', '/en/faire-un-don', '/en/devenir-membre', '/en/blog/1', '/en/mon-espace']) {
    await page.goto(path);
    const targets = await page.locator('a[href^="/"]:not([hreflang]), form[action^="/"]').evaluateAll((els) => els.map((e) => e.getAttribute('href') ?? e.getAttribute('action')!));
    expect(targets.length, path).toBeGreaterThan(5);
    const elsewhere = targets.filter((t) => !/^\/en(\/|$|\?|#)/.test(t) && !/^\/(admin|media|assets|mon-espace\/(export|recus|carte))(\/|$)/.test(t));
    expect(elsewhere, path).toEqual([]);
  }
});

test('a browser asking for Spanish still gets the French page at a French address (one page per address), which offers Spanish', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'es-ES' });
  const page = await context.newPage();
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  await expect(page.locator('link[rel="alternate"][hreflang="es"]')).toHaveAttribute('href', /\/es$/);
  await context.close();
});

test('the language menu closes with Escape and returns focus', async ({ page }) => {
  await page.goto('/');
  const menu = page.getByTestId('language-menu');
  await menu.locator('summary').focus();
  await page.keyboard.press('Enter');
  await expect(menu.getByRole('link', { name: 'English' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(menu.getByRole('link', { name: 'English' })).toBeHidden();
  await expect(menu.locator('summary')).toBeFocused();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('the slide-in menu opens, leads to a page, and closes', async ({ page }) => {
    await page.goto('/');
    const desktopNav = page.getByRole('banner').locator('nav').first();
    await expect(desktopNav).toBeHidden();
    const menu = page.getByTestId('mobile-menu');
    await menu.getByLabel('Ouvrir le menu').click();
    const link = menu.getByRole('link', { name: 'Missions' });
    await expect(link).toBeVisible();
    await link.click();
    await expect(page).toHaveURL(/\/missions$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Nos missions');
    await expect(page.getByTestId('mobile-menu').getByRole('link', { name: 'Missions' })).toBeHidden();
    await page.getByTestId('mobile-menu').getByLabel('Ouvrir le menu').click();
    await page.getByRole('button', { name: 'Fermer le menu' }).click();
    await expect(page.getByTestId('mobile-menu').getByRole('link', { name: 'Missions' })).toBeHidden();
  });

  test('a project description is reachable by tapping the card', async ({ page }) => {
    await page.goto('/nos-actions');
    const card = page.getByTestId('project-card').first();
    await card.tap();
    await expect(card.locator('[data-description]')).toHaveCSS('opacity', '1');
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('every menu still works', async ({ page }) => {
    await page.goto('/');
    await page.getByTestId('language-menu').locator('summary').click();
    await page.getByRole('link', { name: 'Español' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Actuar juntos por un futuro digno');
    // The carousel's buttons need the script; without it they are not shown.
    await expect(page.getByRole('button', { name: 'Imagen siguiente' })).toBeHidden();
  });
});
