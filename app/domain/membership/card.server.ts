/**
 * The member card (ADR 021): a one-page tagged PDF drawn by the shared form layout
 * (app/lib/form-pdf.server.ts, like the tax receipt) in the member's language — the member's
 * name, number, type and the last day their dues pay for — with the foundation's name and the
 * logo from the site settings. `mailMemberCard` mails it on activation (the joining flow calls it
 * once a membership is active; an Admin's validation in the register too), and the donor space
 * serves it for download.
 */
import type { DB } from '~db/index';
import type { Env } from '~/lib/env.server';
import { renderFormPdf, type FormDocument } from '~/lib/form-pdf.server';
import { LOCALES, isLang, translate, type Lang } from '~/lib/i18n';
import { messagesFor } from '~/lib/i18n.server';
import { formatDay } from '~/lib/intl';
import { mailConfigFor, paragraphsHtml, sendMail, type MailResult } from '~/lib/mail.server';
import type { Storage } from '~/lib/storage.server';
import { pdfImage } from '~/domain/media/pdf-image.server';
import { getSiteSettings } from '~/domain/settings/site-settings.server';
import { MembershipNotFoundError } from './dues.server';
import { getType } from './types.server';
import { siteUrl } from '~/lib/lang-path';

/** What the card prints, read from the register. */
export interface CardData {
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

/** The card as a form, in reading order (what a text extractor reads back). */
export function memberCardForm(card: CardData, lang: Lang, logo: Buffer | undefined, date: Date): FormDocument {
  const m = messagesFor(lang);
  const site = translate(m, 'site.name');
  const title = translate(m, 'memberCard.title');
  return {
    meta: { title: `${title} ${card.number}`, author: site, subject: title, creator: site, lang: LOCALES[lang], date },
    header: {
      logo: logo ? { data: logo, alt: translate(m, 'memberCard.logoAlt', { site }) } : undefined,
      title,
      lines: [translate(m, 'memberCard.heading', { site })],
      reference: { label: translate(m, 'memberCard.number'), value: String(card.number) },
    },
    sections: [
      {
        title: translate(m, 'memberCard.section'),
        items: [
          { kind: 'field', label: translate(m, 'memberCard.name'), value: card.name },
          { kind: 'field', label: translate(m, 'memberCard.type'), value: card.type },
          { kind: 'field', label: translate(m, 'memberCard.validUntil'), value: validUntil(card, lang) },
          { kind: 'text', text: translate(m, 'memberCard.note') },
        ],
      },
    ],
  };
}

export function memberCardFileName(number: number, lang: Lang): string {
  return `${translate(messagesFor(lang), 'memberCard.fileName')}-${number}.pdf`;
}

/**
 * The member card of a membership as a PDF in `locale`. Throws MembershipNotFoundError for an
 * unknown membership. `storage` draws the site's logo (none without it); `date` is the PDF's
 * creation date (now by default).
 */
export async function memberCardPdf(db: DB, membershipId: string, locale: Lang, options: { storage?: Storage; date?: Date } = {}): Promise<Buffer> {
  return cardPdf(db, await cardData(db, membershipId, locale), locale, options);
}

async function cardPdf(db: DB, card: CardData, locale: Lang, options: { storage?: Storage; date?: Date }): Promise<Buffer> {
  const site = await getSiteSettings(db);
  const logo = await pdfImage(options.storage, site.siteLogoUrl || site.logoUrl);
  return renderFormPdf(memberCardForm(card, locale, logo, options.date ?? new Date()));
}

export interface MemberCardDeps {
  db: DB;
  env: Pick<Env, 'SMTP_URL' | 'MAIL_FROM'>;
  /** The trusted origin, for the link to the donor space; without one, the path only. */
  publicUrl: string | undefined;
  storage?: Storage;
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
  const pdf = await cardPdf(db, card, lang, { storage: deps.storage });
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
