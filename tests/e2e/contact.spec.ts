import { expect, test, type Page } from '@playwright/test';
import { readDb } from './support';

async function fill(page: Page, values: { firstName?: string; lastName?: string; email?: string; message?: string }) {
  for (const [field, value] of Object.entries(values)) await page.locator(`#${field}`).fill(value ?? '');
}

function countMessages(email: string): number {
  return readDb((db) => (db.prepare('select count(*) as n from messages where email = ?').get(email) as { n: number }).n);
}

test('a valid message is stored and the visitor sees "Message envoyé !"', async ({ page }) => {
  await page.goto('/contact');
  await expect(page.getByText('Intégration de la carte ici')).toBeVisible();
  await expect(page.getByRole('main').getByRole('link', { name: 'contact@fondation-thv.org' })).toHaveAttribute('href', 'mailto:contact@fondation-thv.org');
  await fill(page, { firstName: 'Awa', lastName: 'Diallo', email: 'awa.e2e@example.org', message: 'Je souhaite devenir bénévole.' });
  await page.getByRole('button', { name: 'Envoyer le message' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Message envoyé !' }).first()).toBeVisible();
  expect(countMessages('awa.e2e@example.org')).toBe(1);
  const row = readDb((db) => db.prepare('select first_name, last_name, message, language from messages where email = ?').get('awa.e2e@example.org'));
  expect(row).toEqual({ first_name: 'Awa', last_name: 'Diallo', message: 'Je souhaite devenir bénévole.', language: 'fr' });
});

test('invalid input shows errors beside the fields, keeps what was typed and stores nothing', async ({ page }) => {
  await page.goto('/en/contact');
  await fill(page, { firstName: 'John', lastName: '', email: 'john.invalid@', message: 'Hello' });
  // The browser's own checks are bypassed to prove the server validates too.
  await page.locator('form[action="/en/contact"]').evaluate((f) => f.setAttribute('novalidate', ''));
  await page.getByRole('button', { name: 'Send the message' }).click();
  await expect(page.getByRole('alert')).toContainText('The message was not sent');
  await expect(page.getByLabel(/^Last name/)).toHaveAccessibleDescription('This field is required.');
  await expect(page.getByLabel(/^Email/)).toHaveAccessibleDescription('Please enter a valid email address.');
  await expect(page.getByLabel(/^First name/)).toHaveValue('John');
  await expect(page.getByLabel(/^Message/)).toHaveValue('Hello');
  expect(countMessages('john.invalid@')).toBe(0);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the form validates and sends all the same', async ({ page }) => {
    await page.goto('/es/contact');
    await page.locator('form[action="/es/contact"]').evaluate((f) => f.setAttribute('novalidate', ''));
    await page.getByRole('button', { name: 'Enviar el mensaje' }).click();
    await expect(page.locator('#firstName')).toHaveAccessibleDescription('Este campo es obligatorio.');
    await fill(page, { firstName: 'Ana', lastName: 'López', email: 'ana.nojs@example.org', message: 'Hola' });
    await page.getByRole('button', { name: 'Enviar el mensaje' }).click();
    await expect(page.getByTestId('contact-sent')).toContainText('¡Mensaje enviado!');
    expect(countMessages('ana.nojs@example.org')).toBe(1);
  });
});

test('the hidden honeypot field makes a robot believe it was sent, and nothing is stored', async ({ request, baseURL }) => {
  const response = await request.post('/contact', {
    form: { firstName: 'Bot', lastName: 'Bot', email: 'bot@example.org', message: 'spam', website: 'http://spam.example' },
    headers: { Origin: new URL(baseURL!).origin },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(303);
  expect(response.headers().location).toBe('/contact?sent=1');
  expect(countMessages('bot@example.org')).toBe(0);
});

test('a form posted from another site is refused', async ({ request }) => {
  const response = await request.post('/contact', {
    form: { firstName: 'X', lastName: 'Y', email: 'csrf@example.org', message: 'z' },
    headers: { Origin: 'https://evil.example' },
    maxRedirects: 0,
  });
  expect(response.status()).toBeGreaterThanOrEqual(400);
  expect(countMessages('csrf@example.org')).toBe(0);
});
