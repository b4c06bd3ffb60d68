import { expect, type Page } from '@playwright/test';
import { sitePath } from '~/lib/lang-path';

/**
 * "Aperçu" as editors and their colleagues use it (ADR 015), shared by the editorial specs: what
 * every preview must be (marked, not indexed, never stored) is checked here once; each spec checks
 * what its page shows.
 */
const BANNER = { Français: 'Aperçu', English: 'Preview', Español: 'Vista previa' } as const;
const LNG = { Français: 'fr', English: 'en', Español: 'es' } as const;
export type PreviewLanguage = keyof typeof BANNER;

/** Clicks "Aperçu (<language>)" on the edit screen: the public page opens in a new tab, marked and `noindex`. */
export async function openPreview(page: Page, language: PreviewLanguage): Promise<Page> {
  const [preview] = await Promise.all([page.waitForEvent('popup'), page.getByRole('link', { name: `Aperçu (${language})` }).click()]);
  await expect(preview.getByTestId('preview-banner')).toContainText(BANNER[language]);
  await expect(preview.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
  return preview;
}

/**
 * A colleague without an account opens the link shown on the edit screen, in `language`: the
 * answer is never stored by a cache nor indexed. Answers the link (a URL object) for more visits.
 */
export async function openSharedPreview(page: Page, visit: Page, language: PreviewLanguage) {
  const shared = new URL(await page.getByLabel(/Lien d’aperçu à partager/).inputValue());
  shared.pathname = sitePath(LNG[language], shared.pathname);
  const res = await visit.goto(shared.toString());
  expect(res!.headers()['cache-control']).toContain('no-store');
  expect(res!.headers()['x-robots-tag']).toContain('noindex');
  await expect(visit.getByTestId('preview-banner')).toBeVisible();
  return { shared, res: res! };
}

/** The same link with its expiry changed: its signature no longer matches, so visitors' page is shown. */
export async function openForgedPreview(visit: Page, shared: URL) {
  const forged = new URL(shared);
  forged.searchParams.set('apercu', `1.${shared.searchParams.get('apercu')!.split('.')[1]}`);
  await visit.goto(forged.toString());
  await expect(visit.getByTestId('preview-banner')).toHaveCount(0);
}

/**
 * "Publier" took the place of the spec's save: its toast is the spec's (SPEC §8: 'Contenu
 * sauvegardé !', 'Projet modifié !'…) as the title, and that visitors now see this version.
 */
export async function expectPublishedToast(page: Page, title: string): Promise<void> {
  const shown = page.locator('[data-toast-region] li');
  await expect(shown.locator('.toast-title')).toHaveText(title);
  await expect(shown.locator('.toast-description')).toHaveText('Les visiteurs voient maintenant cette version.');
}
