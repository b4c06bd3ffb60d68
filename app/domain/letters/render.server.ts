import { translate, type Lang } from '~/lib/i18n';
import { messagesFor } from '~/lib/i18n.server';
import { escapeMailHtml as esc } from '~/lib/mail.server';
import type { LetterVersion } from './letter';
import { siteUrl } from '~/lib/lang-path';
import { letterHtml, richCss, richMjml, richText } from './rich.server';

/**
 * A letter as a mail (ADR 022, ADR 039): HTML built by MJML (its strict validation is the email lint: a
 * template it refuses throws), a plain-text part with the same words and links, images and links
 * as absolute URLs, the foundation's address and the unsubscribe link at the foot. Colours are
 * set on every block (dark-mode clients that invert keep the contrast); nothing tracks opens or
 * clicks.
 */
export interface LetterContext {
  lang: Lang;
  /** The site's trusted origin (PUBLIC_URL): every link and image of a letter is absolute. */
  origin: string;
  /** The page with the one button (the footer link); the one-click address goes in the headers. */
  unsubscribeUrl: string;
  /** The foundation's postal address (site settings). */
  address: string;
  siteName: string;
}

export interface RenderedLetter {
  subject: string;
  html: string;
  text: string;
}

/**
 * mjml (about 100 MB once loaded), loaded with the first letter rendered rather than when a worker
 * starts: a worker that only serves pages never holds it (issue 40, memory in service).
 */
let mjml: Promise<(typeof import('mjml'))['default']> | undefined;
const loadMjml = () => (mjml ??= import('mjml').then((m) => m.default));

/** A site path made absolute (at the reader's language's address, ADR 026; a file as it is); an https address as it is. */
export function absoluteUrl(origin: string, pathOrUrl: string, lang?: Lang): string {
  if (/^https:\/\//.test(pathOrUrl)) return pathOrUrl;
  return lang && !pathOrUrl.startsWith('/media/') ? siteUrl(origin, lang, pathOrUrl) : `${origin}${pathOrUrl}`;
}

const paragraphs = (body: string): string[] => body.split(/\r?\n\s*\r?\n/).map((p) => p.trim()).filter(Boolean);

const COLORS = { page: '#f3f4f6', card: '#ffffff', text: '#1f2937', muted: '#374151', button: '#14532d', buttonText: '#ffffff' };

export async function renderLetter(version: LetterVersion, ctx: LetterContext): Promise<RenderedLetter> {
  const m = messagesFor(ctx.lang);
  const t = (k: Parameters<typeof translate>[1], vars?: Record<string, string>) => translate(m, k, vars);
  const link = version.link ? absoluteUrl(ctx.origin, version.link, ctx.lang) : '';
  const image = version.image ? absoluteUrl(ctx.origin, version.image) : '';
  const rich = version.format === 'html' ? letterHtml(version.body, ctx.origin, ctx.lang) : undefined;
  const paras = rich === undefined ? paragraphs(version.body) : [];
  const body = rich === undefined ? paras.map((p) => `<mj-text>${esc(p).replace(/\r?\n/g, '<br />')}</mj-text>`).join('\n        ') : richMjml(rich);
  const source = `<mjml lang="${ctx.lang}">
  <mj-head>
    <mj-title>${esc(version.subject)}</mj-title>
    <mj-attributes>
      <mj-all font-family="Helvetica, Arial, sans-serif" />
      <mj-text color="${COLORS.text}" font-size="16px" line-height="24px" />
    </mj-attributes>
    <mj-style>:root { color-scheme: light; supported-color-schemes: light; }</mj-style>
    ${rich === undefined ? '' : `<mj-style inline="inline">${richCss(COLORS)}</mj-style>`}
  </mj-head>
  <mj-body background-color="${COLORS.page}">
    <mj-section background-color="${COLORS.card}" padding="24px 16px">
      <mj-column>
        <mj-text font-size="14px" font-weight="bold" color="${COLORS.button}">${esc(ctx.siteName)}</mj-text>
        ${image ? `<mj-image src="${esc(image)}" alt="" padding="8px 25px" />` : ''}
        <mj-text font-size="24px" line-height="32px" font-weight="bold">${esc(version.subject)}</mj-text>
        ${body}
        ${link ? `<mj-button href="${esc(link)}" background-color="${COLORS.button}" color="${COLORS.buttonText}" font-size="16px">${esc(t('letter.readMore'))}</mj-button>` : ''}
      </mj-column>
    </mj-section>
    <mj-section padding="16px">
      <mj-column>
        <mj-text font-size="13px" line-height="20px" color="${COLORS.muted}">${esc(t('letter.why'))}<br />${esc(ctx.siteName)} · ${esc(ctx.address)}<br /><a href="${esc(ctx.unsubscribeUrl)}" style="color:${COLORS.muted};text-decoration:underline">${esc(t('letter.unsubscribe'))}</a></mj-text>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>`;
  const { html } = await (await loadMjml())(source, { validationLevel: 'strict', keepComments: false });
  const text = [
    version.subject,
    ...(rich === undefined ? paras : [richText(rich)]),
    ...(link ? [`${t('letter.readMore')} : ${link}`.replace(' : ', ctx.lang === 'fr' ? ' : ' : ': ')] : []),
    '--',
    t('letter.why'),
    `${ctx.siteName} · ${ctx.address}`,
    t('letter.unsubscribeText', { url: ctx.unsubscribeUrl }),
  ].join('\n\n');
  return { subject: version.subject, html, text };
}
