import { convert } from 'html-to-text';
import type { Lang } from '~/lib/i18n';
import { siteUrl } from '~/lib/lang-path';
import { sanitizeLetterHtml } from '~/lib/sanitize.server';
import { plainToHtml, type LetterVersions } from './letter';

/**
 * A letter written in the rich editor (ADR 039): its HTML sanitized when saved and again when
 * rendered (the posts' allowlist plus library images, app/lib/sanitize.server.ts), cut into MJML
 * blocks — text blocks for headings, paragraphs and lists, an mj-image for each image between
 * them — with every address absolute, and its text part derived from the same HTML.
 */

/** The versions with each rich body sanitized (plain-text bodies as they are). */
export function cleanVersions(versions: LetterVersions): LetterVersions {
  const out = { ...versions };
  for (const l of ['fr', 'en', 'es'] as const) {
    const v = out[l];
    // Typed without the editor (no JavaScript), a body without markup is plain paragraphs.
    if (v?.format === 'html') Object.assign(out, { [l]: { ...v, body: sanitizeLetterHtml(/</.test(v.body) ? v.body : plainToHtml(v.body)) } });
  }
  return out;
}

/** Site paths made absolute: images at the origin, links at the reader's language's address. */
function absolute(html: string, origin: string, lang: Lang): string {
  return html
    .replace(/ src="\/(?!\/)/g, ` src="${origin}/`)
    .replace(/ href="(\/(?!\/)[^"]*)"/g, (_m, path: string) => ` href="${path.startsWith('/media/') ? `${origin}${path}` : siteUrl(origin, lang, path)}"`);
}

/** The sanitized, absolute HTML of a rich body. */
export function letterHtml(body: string, origin: string, lang: Lang): string {
  return absolute(sanitizeLetterHtml(body), origin, lang);
}

type Block = { kind: 'html'; html: string } | { kind: 'image'; src: string; alt: string };

const VOID = new Set(['br', 'img', 'hr']);

/** The body's top-level blocks: runs of text markup, and the images that stand alone between them. */
export function topLevelBlocks(html: string): Block[] {
  const blocks: Block[] = [];
  let depth = 0;
  let from = 0;
  const flush = (to: number) => {
    const part = html.slice(from, to).trim();
    if (part) blocks.push({ kind: 'html', html: part });
  };
  for (const m of html.matchAll(/<(\/?)([a-zA-Z0-9]+)([^>]*?)\/?>/g)) {
    const [tag, closing, name, attrs] = m;
    const lower = name.toLowerCase();
    if (lower === 'img' && depth === 0) {
      flush(m.index);
      blocks.push({ kind: 'image', src: /\ssrc="([^"]*)"/.exec(attrs)?.[1] ?? '', alt: /\salt="([^"]*)"/.exec(attrs)?.[1] ?? '' });
      from = m.index + tag.length;
    } else if (!VOID.has(lower)) depth += closing ? -1 : 1;
  }
  flush(html.length);
  return blocks;
}

/** The body as MJML blocks inside the letter's column (values already escaped by the sanitizer). */
export function richMjml(html: string): string {
  return topLevelBlocks(html)
    .map((b) => (b.kind === 'image' ? `<mj-image src="${b.src}" alt="${b.alt}" padding="8px 25px" />` : `<mj-text css-class="letter-body">${b.html}</mj-text>`))
    .join('\n        ');
}

/** Inlined by MJML into the mail's HTML: the rich body's headings, lists, links and images. */
export function richCss(colors: { text: string; button: string }): string {
  return `.letter-body h1, .letter-body h2, .letter-body h3 { color: ${colors.text}; font-weight: bold; margin: 16px 0 8px; }
      .letter-body h1 { font-size: 24px; line-height: 32px; }
      .letter-body h2 { font-size: 20px; line-height: 28px; }
      .letter-body h3 { font-size: 18px; line-height: 26px; }
      .letter-body p { margin: 0 0 12px; }
      .letter-body ul, .letter-body ol { margin: 0 0 12px; padding-left: 24px; }
      .letter-body li { margin: 0 0 4px; }
      .letter-body li p { margin: 0; }
      .letter-body a { color: ${colors.button}; text-decoration: underline; }
      .letter-body img { max-width: 100%; height: auto; }`;
}

/** The text part of a rich body: headings as written, lists with dashes, links as "text (url)", images as "alt (url)". */
export function richText(html: string): string {
  const heading = { uppercase: false, leadingLineBreaks: 2 };
  // The editor wraps each list item's text in a paragraph: one line per item all the same.
  // The editor wraps each list item's text in a paragraph: one line per item all the same; an
  // image between blocks is a block of its own.
  const flat = topLevelBlocks(html)
    .map((b) => (b.kind === 'image' ? `<p><img src="${b.src}" alt="${b.alt}" /></p>` : b.html))
    .join('')
    .replace(/<li>\s*<p>/g, '<li>')
    .replace(/<\/p>\s*<\/li>/g, '</li>');
  return convert(flat, {
    wordwrap: false,
    selectors: [
      { selector: 'a', options: { linkBrackets: ['(', ')'], hideLinkIfSameAsText: true } },
      { selector: 'img', options: { linkBrackets: ['(', ')'] } },
      { selector: 'h1', options: heading },
      { selector: 'h2', options: heading },
      { selector: 'h3', options: heading },
      { selector: 'ul', options: { itemPrefix: '- ' } },
    ],
  }).trim();
}
