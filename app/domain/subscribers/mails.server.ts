import type { DB } from '~db/index';
import type { Env } from '~/lib/env.server';
import { translate, type Lang } from '~/lib/i18n';
import { messagesFor } from '~/lib/i18n.server';
import { mailConfigFor, paragraphsHtml, sendMail, type MailResult } from '~/lib/mail.server';
import { siteUrl } from '~/lib/lang-path';

/** A page of the news list in a subscriber's language. */
export const listPageUrl = siteUrl;

export const confirmPath = (token: string) => `/lettre/confirmer/${encodeURIComponent(token)}`;
export const unsubscribePath = (token: string) => `/lettre/desabonnement/${encodeURIComponent(token)}`;

/** The double opt-in mail, in the language of the page the form was on. */
export async function sendOptInMail(deps: { db: DB; env: Env; publicUrl: string | undefined }, to: string, lang: Lang, token: string): Promise<MailResult> {
  const m = messagesFor(lang);
  const url = listPageUrl(deps.publicUrl, lang, confirmPath(token));
  const paragraphs = [translate(m, 'newsletter.optInGreeting'), translate(m, 'newsletter.optInBody', { url }), translate(m, 'newsletter.optInIgnore'), translate(m, 'newsletter.signature')];
  return sendMail(deps.db, mailConfigFor(deps.env, deps.publicUrl), {
    to,
    subject: translate(m, 'newsletter.optInSubject'),
    text: paragraphs.join('\n\n'),
    html: paragraphsHtml(paragraphs),
  });
}
