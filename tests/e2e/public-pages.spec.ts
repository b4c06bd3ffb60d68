import { expect, test } from '@playwright/test';
import { sitePath } from '~/lib/lang-path';
import { expectAccessible, PUBLIC_PAGES } from './support';

for (const lang of ['fr', 'en', 'es'] as const) {
  test.describe(`public pages in ${lang}`, () => {
    for (const p of PUBLIC_PAGES) {
      test(`${p.path} renders in ${lang} with zero axe violations`, async ({ page }) => {
        const response = await page.goto(sitePath(lang, p.path));
        expect(response?.status()).toBe(p.status ?? 200);
        await expect(page.locator('html')).toHaveAttribute('lang', lang);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(p.h1[lang]);
        // Shared layout: header navigation, donate button, footer with © link, WhatsApp button.
        await expect(page.getByRole('banner').getByRole('link', { name: { fr: 'Faire un don', en: 'Donate', es: 'Donar' }[lang] })).toBeVisible();
        await expect(page.getByRole('contentinfo').getByRole('link', { name: { fr: 'Espace administrateur', en: 'Administration area', es: 'Área de administración' }[lang] })).toHaveAttribute('href', '/admin/login');
        await expectAccessible(page);
      });
    }
  });
}

test('a blog post’s title is the article’s title then the blog’s name, its description the excerpt', async ({ page }) => {
  await page.goto('/blog/1');
  await expect(page).toHaveTitle('Retour sur la caravane médicale | Blog de la Fondation THV');
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', 'Plus de 2 000 consultations gratuites en trois semaines.');
  await expect(page.getByText('Santé', { exact: true })).toBeVisible();
  await expect(page.getByText('Par Admin THV')).toBeVisible();
  await expect(page.locator('time')).toHaveText('5 octobre 2026');
  await page.getByRole('link', { name: 'Retour au blog' }).click();
  await expect(page).toHaveURL(/\/blog$/);
});

test('an unknown article answers 404 with a way back to the blog', async ({ page }) => {
  const response = await page.goto('/blog/999999');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Article non trouvé' })).toBeVisible();
  await page.getByRole('link', { name: 'Retour au blog' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Actualités');
});

test('the blog lists published posts only, newest first', async ({ page }) => {
  await page.goto('/blog');
  const titles = page.getByRole('main').getByRole('article').getByRole('heading', { level: 2 });
  await expect(titles).toHaveText(['Retour sur la caravane médicale', 'La rentrée à l’école de Thiès']);
  await expect(page.getByText('Bientôt : nos jardins partagés')).toHaveCount(0);
});

test('projects show only active ones; the description appears on hover and on keyboard focus', async ({ page }) => {
  await page.goto('/nos-actions');
  const cards = page.getByTestId('project-card');
  await expect(cards).toHaveCount(2);
  await expect(page.getByText('Jardins partagés')).toHaveCount(0);
  const description = cards.first().locator('[data-description]');
  await expect(description).toContainText('Des consultations gratuites');
  await expect(description).toHaveCSS('opacity', '0');
  await cards.first().hover();
  await expect(description).toHaveCSS('opacity', '1');
  await page.mouse.move(0, 0);
  await page.keyboard.press('Tab');
  await cards.nth(1).focus();
  await expect(cards.nth(1).locator('[data-description]')).toHaveCSS('opacity', '1');
});

test('partners open their site in a new tab', async ({ page }) => {
  await page.goto('/partenaires');
  const link = page.getByRole('link', { name: /Visiter le site de Solidarité Santé/ });
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', /noopener/);
  await expect(link).toHaveAttribute('href', 'https://example.org/solidarite-sante');
});

test('the home carousel has previous/next/pause buttons and moves to the next image', async ({ page }) => {
  await page.goto('/');
  const slides = page.locator('[data-slide]');
  await expect(slides).toHaveCount(5);
  await expect(slides.nth(0)).toHaveAttribute('aria-hidden', 'false');
  await page.getByRole('button', { name: 'Mettre en pause le diaporama' }).click();
  await expect(page.getByRole('button', { name: 'Reprendre le diaporama' })).toBeVisible();
  await page.getByRole('button', { name: 'Image suivante' }).click();
  await expect(slides.nth(1)).toHaveAttribute('aria-hidden', 'false');
  await expect(slides.nth(0)).toHaveAttribute('aria-hidden', 'true');
  await page.getByRole('button', { name: 'Image précédente' }).click();
  await page.getByRole('button', { name: 'Image précédente' }).click();
  await expect(slides.nth(4)).toHaveAttribute('aria-hidden', 'false');
  // Four key missions and three action previews.
  await expect(page.getByRole('heading', { level: 3 })).toHaveCount(7);
});

test('the carousel advances by itself every 5 seconds', async ({ page }) => {
  await page.clock.install();
  await page.goto('/');
  const slides = page.locator('[data-slide]');
  await expect(slides.nth(0)).toHaveAttribute('aria-hidden', 'false');
  await page.clock.runFor(5000);
  await expect(slides.nth(1)).toHaveAttribute('aria-hidden', 'false');
});

test('the footer notices an unset social link and the membership form that is not there yet', async ({ page }) => {
  await page.goto('/devenir-membre');
  await page.getByRole('button', { name: /X \(Twitter\)/ }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Lien non configuré' })).toBeVisible();
  await page.getByRole('button', { name: 'Télécharger le formulaire d’adhésion' }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'Formulaire non disponible' });
  await expect(alert).toContainText("L’administrateur n’a pas encore défini de formulaire d’adhésion.");
  await alert.getByRole('button', { name: 'Fermer' }).click();
  await expect(alert).toHaveCount(0);
});

test('the WhatsApp button opens a chat with the configured number', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('whatsapp')).toHaveAttribute('href', 'https://wa.me/33123456789');
});

test.describe('toasts', () => {
  test('one at a time, gone after 5 seconds, paused while hovered, F8 reaches them', async ({ page }) => {
    await page.clock.install();
    await page.goto('/devenir-membre');
    const region = page.locator('[data-toast-region]');
    await page.getByRole('button', { name: /X \(Twitter\)/ }).click();
    await page.getByRole('button', { name: 'Télécharger le formulaire d’adhésion' }).click();
    await expect(region.locator('li')).toHaveCount(1);
    await expect(region).toContainText('Formulaire non disponible');
    await page.clock.runFor(5100);
    await expect(region.locator('li')).toHaveCount(0);

    await page.getByRole('button', { name: 'Télécharger le formulaire d’adhésion' }).click();
    await region.locator('li').hover();
    await page.clock.runFor(8000);
    await expect(region.locator('li')).toHaveCount(1);
    await page.mouse.move(0, 0);
    await page.clock.runFor(5100);
    await expect(region.locator('li')).toHaveCount(0);

    await page.keyboard.press('F8');
    await expect(region).toBeFocused();
  });

  test('a toast can be swiped away', async ({ page }) => {
    await page.goto('/devenir-membre');
    await page.getByRole('button', { name: 'Télécharger le formulaire d’adhésion' }).click();
    const toast = page.locator('[data-toast-region] li');
    const box = (await toast.boundingBox())!;
    await page.mouse.move(box.x + 20, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + 90, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await expect(toast).toHaveCount(0);
  });
});
