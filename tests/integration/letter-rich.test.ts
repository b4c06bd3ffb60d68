import { afterAll, beforeAll, expect, it } from 'vitest';
import { letterFormValues, letterSchema, versionsOf, type LetterVersion } from '~/domain/letters/letter';
import { createLetter, getLetter, updateLetter } from '~/domain/letters/letters.server';
import { renderLetter, type LetterContext } from '~/domain/letters/render.server';
import { richText, topLevelBlocks } from '~/domain/letters/rich.server';
import { createTestDb, describeEachDialect, type TestDb } from '../support/db';

const ACTOR = { id: 'u1', name: 'Éva Éditrice' };
const ORIGIN = 'https://fondation.example.org';
const CTX: LetterContext = { lang: 'fr', origin: ORIGIN, unsubscribeUrl: `${ORIGIN}/lettre/desabonnement/tok`, address: '1 rue de la Paix, 75002 Paris', siteName: 'Fondation THV' };

/** What the rich editor writes (Tiptap's HTML), with what a hostile paste would add. */
const WRITTEN =
  '<h2>Notre appel d’hiver</h2>' +
  '<p>Votre don compte <strong>plus que jamais</strong> : <a href="https://fondation.example.org/faire-un-don" target="_blank" rel="noopener noreferrer">donner maintenant</a>, ou <a href="/nos-actions">voir nos actions</a>.</p>' +
  '<img src="/media/hiver.jpg" alt="Une école sous la neige">' +
  '<ul><li><p>des couvertures</p></li><li><p>des repas chauds</p></li></ul>' +
  '<script>alert("x")</script><p onclick="steal()">Merci.<img src="javascript:alert(1)"><img src="data:image/png;base64,AAAA"></p>';

const rich = (body: string): LetterVersion => ({ subject: 'Appel d’hiver', body, link: '', image: '', format: 'html' });

/**
 * Letters written in the rich editor (ADR 039), on both databases: sanitized when saved (scripts,
 * handlers and foreign images gone), rendered by MJML with headings, bold, links, lists and library
 * images at absolute addresses, and a text part with the same words and links as "text (url)".
 * A plain-text letter written before renders as it did.
 */
describeEachDialect('letters in the rich editor on %s', (dialect) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(dialect);
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it('keeps the editor’s markup and drops scripts, handlers and foreign images when saving', async () => {
    const parsed = letterSchema.parse(letterFormValues(new Map(Object.entries({ 'fr.subject': 'Appel d’hiver', 'fr.body': WRITTEN, 'fr.format': 'html', audienceLanguage: '', audienceSource: '' }))));
    const id = await createLetter(t.db, ACTOR, versionsOf(parsed), { language: '', source: '' });
    const saved = (await getLetter(t.db, id))!.versions.fr;
    expect(saved.format).toBe('html');
    expect(saved.body).toContain('<h2>Notre appel d’hiver</h2>');
    expect(saved.body).toContain('<strong>plus que jamais</strong>');
    expect(saved.body).toContain('<img src="/media/hiver.jpg" alt="Une école sous la neige" />');
    expect(saved.body).toContain('<ul><li><p>des couvertures</p></li>');
    expect(saved.body).not.toMatch(/script|alert|onclick|javascript|data:/);
    expect(saved.body).toContain('<p>Merci.</p>');

    // A body typed without the editor (no JavaScript) and without markup becomes paragraphs.
    const letter = (await getLetter(t.db, id))!;
    expect(await updateLetter(t.db, ACTOR, id, { fr: { ...saved, body: 'Bonjour,\n\nà bientôt & merci' } }, letter.audience, letter.version)).toBe('ok');
    expect((await getLetter(t.db, id))!.versions.fr.body).toBe('<p>Bonjour,</p><p>à bientôt &amp; merci</p>');
  });

  it('renders the saved letter to MJML’s HTML with every format, images as absolute URLs, and its text part', async () => {
    const id = await createLetter(t.db, ACTOR, { fr: rich(WRITTEN) }, { language: '', source: '' });
    const mail = await renderLetter((await getLetter(t.db, id))!.versions.fr, CTX);
    expect(mail.html).toMatch(/<h2[^>]*>Notre appel d’hiver<\/h2>/);
    expect(mail.html).toMatch(/<h2 style="[^"]*font-size: ?20px/);
    expect(mail.html).toContain('<strong>plus que jamais</strong>');
    expect(mail.html).toMatch(/<a href="https:\/\/fondation\.example\.org\/faire-un-don"[^>]*>donner maintenant<\/a>/);
    expect(mail.html).toMatch(/<a href="https:\/\/fondation\.example\.org\/nos-actions"[^>]*>voir nos actions<\/a>/);
    expect(mail.html).toMatch(/<li[^>]*><p[^>]*>des couvertures<\/p><\/li>/);
    expect(mail.html).toMatch(/<img[^>]*alt="Une école sous la neige"[^>]*src="https:\/\/fondation\.example\.org\/media\/hiver\.jpg"/);
    expect(mail.html).not.toMatch(/<script|alert\(|onclick|javascript:/);
    expect(mail.text).toBe(
      [
        'Appel d’hiver',
        'Notre appel d’hiver\n\nVotre don compte plus que jamais : donner maintenant (https://fondation.example.org/faire-un-don), ou voir nos actions (https://fondation.example.org/nos-actions).\n\n' +
          'Une école sous la neige (https://fondation.example.org/media/hiver.jpg)\n\n- des couvertures\n- des repas chauds\n\nMerci.',
        '--',
        'Vous recevez cette lettre parce que vous êtes abonné aux nouvelles de la Fondation THV.',
        'Fondation THV · 1 rue de la Paix, 75002 Paris',
        `Se désabonner : ${ORIGIN}/lettre/desabonnement/tok`,
      ].join('\n\n'),
    );
  });

  it('links of the site go to the reader’s language’s address', async () => {
    const mail = await renderLetter(rich('<p><a href="/nos-actions">nos actions</a></p>'), { ...CTX, lang: 'en' });
    expect(mail.html).toContain('href="https://fondation.example.org/en/nos-actions"');
    expect(mail.text).toContain('nos actions (https://fondation.example.org/en/nos-actions)');
  });

  it('a plain-text letter written before the editor renders as it did: escaped paragraphs', async () => {
    const id = await createLetter(t.db, ACTOR, { fr: { subject: 'Ancienne', body: 'Premier <b>paragraphe</b>\nligne deux\n\nSecond.', link: '', image: '' } }, { language: '', source: '' });
    const old = (await getLetter(t.db, id))!.versions.fr;
    expect(old.format).toBeUndefined();
    const mail = await renderLetter(old, CTX);
    expect(mail.html).toContain('>Premier &#60;b&#62;paragraphe&#60;/b&#62;<br />ligne deux</div>');
    expect(mail.text).toContain('Ancienne\n\nPremier <b>paragraphe</b>\nligne deux\n\nSecond.\n\n--');
  });
});

it('cuts only top-level images out of the text blocks', () => {
  expect(topLevelBlocks('<p>a<img src="/x" /></p><img src="/y" alt="y" /><ul><li>b</li></ul>')).toEqual([
    { kind: 'html', html: '<p>a<img src="/x" /></p>' },
    { kind: 'image', src: '/y', alt: 'y' },
    { kind: 'html', html: '<ul><li>b</li></ul>' },
  ]);
  expect(richText('<h1>Titre é</h1><ol><li>un</li></ol>')).toBe('Titre é\n\n 1. un');
});
