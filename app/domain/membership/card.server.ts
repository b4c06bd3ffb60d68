/**
 * The member card (ADR 021, ADR 039): an ID-1 card (85.6 × 54 mm, card-pdf.server.ts), alone on
 * its page or on an A4 sheet to cut, in the member's language — the member's name, number, type
 * and the last day their dues pay for, with the foundation's name, the logo from the site settings
 * and a QR code of the signed check page (card-check.server.ts). `mailMemberCard` mails it on activation (the joining flow calls it
 * once a membership is active; an Admin's validation in the register too), and the donor space
 * serves it for download.
 */
import type { DB } from '~db/index';
import type { Env } from '~/lib/env.server';
import { LOCALES, isLang, translate, type Lang } from '~/lib/i18n';
import { messagesFor } from '~/lib/i18n.server';
import { formatDay } from '~/lib/intl';
import { mailConfigFor, paragraphsHtml, sendMail, type MailResult } from '~/lib/mail.server';
import type { Storage } from '~/lib/storage.server';
import { pdfImage } from '~/domain/media/pdf-image.server';
import { getSiteSettings } from '~/domain/settings/site-settings.server';
import { MembershipNotFoundError } from './dues.server';
import { getType } from './types.server';
import { cardCheckToken, cardCheckUrl } from './card-check.server';
import { renderCardsPdf, type CardFace, type CardLayout } from './card-pdf.server';
import { siteUrl } from '~/lib/lang-path';

/** What the card prints, read from the register. */
export interface CardData {
  id: string;
  number: number;
  name: string;
  type: string;
  /** The last day the dues pay for (a Paris day), or null. */
  endsOn: string | null;
  /** Honorary or exempt: no end. */
  exempt: boolean;
  email: string;
  language: Lang;
}

async function cardData(db: DB, membershipId: string, locale: Lang): Promise<CardData> {
  const m = await db
    .selectFrom('memberships')
    .select(['number', 'first_name', 'last_name', 'type_id', 'ends_on', 'exempt', 'state_override', 'email', 'language'])
    .where('id', '=', membershipId)
    .executeTakeFirst();
  if (!m) throw new MembershipNotFoundError(membershipId);
  const type = await getType(db, m.type_id);
  return {
    id: membershipId,
    number: Number(m.number),
    name: `${m.first_name} ${m.last_name}`.trim(),
    type: type ? type.translations[locale].name || type.translations.fr.name : '',
    endsOn: m.ends_on,
    exempt: m.exempt === 1 || m.state_override === 'honorary',
    email: m.email,
    language: isLang(m.language) ? m.language : 'fr',
  };
}

/** What "valid until" says: the end's day, no end for an honorary member, or dues awaited. */
export function validUntil(card: Pick<CardData, 'endsOn' | 'exempt'>, lang: Lang): string {
  const m = messagesFor(lang);
  if (card.exempt) return translate(m, 'memberCard.noExpiry');
  return card.endsOn ? formatDay(card.endsOn, LOCALES[lang]) : translate(m, 'memberCard.notYet');
}

/** The card's words in `lang`, and the check page its QR code opens (none without one). */
export function memberCardFace(card: CardData, lang: Lang, logo: Buffer | undefined, checkUrl: string | undefined): CardFace {
  const m = messagesFor(lang);
  const site = translate(m, 'site.name');
  return {
    site,
    title: translate(m, 'memberCard.title'),
    name: card.name,
    lines: [
      { label: translate(m, 'memberCard.type'), value: card.type },
      { label: translate(m, 'memberCard.number'), value: String(card.number) },
      { label: translate(m, 'memberCard.validUntil'), value: validUntil(card, lang) },
    ],
    note: translate(m, 'memberCard.note'),
    checkUrl,
    qrAlt: translate(m, 'memberCard.qrAlt'),
    logo: logo ? { data: logo, alt: translate(m, 'memberCard.logoAlt', { site }) } : undefined,
  };
}

export function memberCardFileName(number: number, lang: Lang, layout: CardLayout = 'card'): string {
  return `${translate(messagesFor(lang), layout === 'sheet' ? 'memberCard.sheetFileName' : 'memberCard.fileName')}-${number}.pdf`;
}

export interface CardPdfOptions {
  /** Draws the site's logo (none without it). */
  storage?: Storage;
  /** The PDF's creation date (now by default). */
  date?: Date;
  /** One card-size page (default), or an A4 sheet to cut. */
  layout?: CardLayout;
  /** The app secret that signs the check page's token: without it, no QR code. */
  secret?: string;
  /** The trusted origin, for the QR code's absolute address: without one, no QR code either. */
  publicUrl?: string;
}

/**
 * The member card of a membership as a PDF in `locale` (ADR 039): ID-1 size, or an A4 sheet to
 * cut. Throws MembershipNotFoundError for an unknown membership.
 */
export async function memberCardPdf(db: DB, membershipId: string, locale: Lang, options: CardPdfOptions = {}): Promise<Buffer> {
  return cardsPdf(db, [await cardData(db, membershipId, locale)], locale, options);
}

async function cardsPdf(db: DB, cards: CardData[], locale: Lang, options: CardPdfOptions): Promise<Buffer> {
  const site = await getSiteSettings(db);
  const logo = await pdfImage(options.storage, site.siteLogoUrl || site.logoUrl);
  const m = messagesFor(locale);
  const title = translate(m, 'memberCard.title');
  const siteName = translate(m, 'site.name');
  const faces = cards.map((card) => memberCardFace(card, locale, logo, options.secret && options.publicUrl ? cardCheckUrl(options.publicUrl, locale, cardCheckToken(options.secret, card.id)) : undefined));
  const meta = { title: cards.length === 1 ? `${title} ${cards[0].number}` : title, author: siteName, subject: title, creator: siteName, lang: LOCALES[locale], date: options.date ?? new Date() };
  return renderCardsPdf(faces, options.layout ?? 'card', meta, translate(m, 'memberCard.sheetNote'));
}

export interface MemberCardDeps {
  db: DB;
  env: Pick<Env, 'SMTP_URL' | 'MAIL_FROM'>;
  /** The trusted origin, for the link to the donor space; without one, the path only. */
  publicUrl: string | undefined;
  storage?: Storage;
  /** The app secret, for the card's QR code (none without it). */
  secret?: string;
}

/**
 * Mails the member card to the member, in the member's language (card and mail). A member with
 * no e-mail address gets nothing ('skipped': the card is then downloaded or printed by staff).
 */
export async function mailMemberCard(deps: MemberCardDeps, membershipId: string): Promise<MailResult | { status: 'skipped' }> {
  const { db } = deps;
  const row = await db.selectFrom('memberships').select(['email', 'language']).where('id', '=', membershipId).executeTakeFirst();
  if (!row) throw new MembershipNotFoundError(membershipId);
  if (!row.email) return { status: 'skipped' };
  const lang: Lang = isLang(row.language) ? row.language : 'fr';
  const card = await cardData(db, membershipId, lang);
  const pdf = await cardsPdf(db, [card], lang, { storage: deps.storage, secret: deps.secret, publicUrl: deps.publicUrl });
  const m = messagesFor(lang);
  const vars = { name: card.name, number: String(card.number), type: card.type, until: validUntil(card, lang), url: siteUrl(deps.publicUrl, lang, '/mon-espace') };
  const paragraphs = [
    translate(m, card.exempt || !card.endsOn ? 'memberCard.bodyNoExpiry' : 'memberCard.body', vars),
    translate(m, 'memberCard.space', vars),
    translate(m, 'memberCard.signature'),
  ];
  return sendMail(db, mailConfigFor(deps.env, deps.publicUrl), {
    to: card.email,
    subject: translate(m, 'memberCard.subject'),
    text: paragraphs.join('\n\n'),
    html: paragraphsHtml(paragraphs),
    attachments: [{ filename: memberCardFileName(card.number, lang), content: pdf, contentType: 'application/pdf' }],
  });
}
