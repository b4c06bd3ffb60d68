import type { DB } from '~db/index';
import type { Env } from '~/lib/env.server';
import { isLang, translate, type Lang, type MessageKey, type Vars } from '~/lib/i18n';
import { messagesFor } from '~/lib/i18n.server';
import { mailConfigFor, paragraphsHtml, sendMail, type MailResult } from '~/lib/mail.server';
import { siteUrl } from '~/lib/lang-path';

export interface MailDeps {
  db: DB;
  env: Env;
  /** The trusted origin (ADR 010); without one, links in mails carry the path only, never a forged host. */
  publicUrl: string | undefined;
}

export const langOf = (value: string | null | undefined): Lang => (isLang(value) ? value : 'fr');

/** The donor space's address in the donor's language. */
export function spaceUrl(publicUrl: string | undefined, lang: Lang, path = '/mon-espace'): string {
  return siteUrl(publicUrl, lang, path);
}

/** One donor mail in their language: a subject and paragraphs (keys of the `donorMail` block). */
export async function sendDonorMail(deps: MailDeps, to: string, lang: Lang, subject: MessageKey, lines: MessageKey[], vars: Vars): Promise<MailResult> {
  const m = messagesFor(lang);
  const paragraphs = [...lines.map((k) => translate(m, k, vars)), translate(m, 'donorMail.signature', vars)];
  return sendMail(deps.db, mailConfigFor(deps.env, deps.publicUrl), {
    to,
    subject: translate(m, subject, vars),
    text: paragraphs.join('\n\n'),
    html: paragraphsHtml(paragraphs),
  });
}
