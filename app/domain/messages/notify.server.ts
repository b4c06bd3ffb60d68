import type { DB } from '~db/index';
import { getSiteSettings } from '~/domain/settings/site-settings.server';
import { log } from '~/lib/log.server';
import { sendMail, type MailConfig, type MailResult } from '~/lib/mail.server';
import type { ContactMessage } from './messages.server';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The mail the foundation receives for a contact message. */
export function contactMail(to: string, m: Pick<ContactMessage, 'firstName' | 'lastName' | 'email' | 'message' | 'language'>, adminUrl: string) {
  const sender = `${m.firstName} ${m.lastName}`;
  const text = `Nouveau message du formulaire de contact\n\nDe : ${sender} <${m.email}>\nLangue : ${m.language}\n\n${m.message}\n\nLire et gérer les messages : ${adminUrl}\n`;
  const html = `<p>Nouveau message du formulaire de contact</p><p><strong>De :</strong> ${escape(sender)} &lt;${escape(m.email)}&gt;<br><strong>Langue :</strong> ${escape(m.language)}</p><p style="white-space:pre-wrap">${escape(m.message)}</p><p><a href="${escape(adminUrl)}">Lire et gérer les messages</a></p>`;
  return { to, subject: `Message de ${sender} (formulaire de contact)`.replace(/[\r\n]+/g, ' '), text, html };
}

/**
 * Emails a stored contact message to the site's contact email (outbox when no SMTP). Never throws:
 * the message is already stored, and a mail problem must not lose it or fail the visitor's send.
 */
export async function mailContactMessage(db: DB, config: MailConfig, m: Parameters<typeof contactMail>[1], adminUrl: string): Promise<MailResult | null> {
  try {
    const { contactEmail } = await getSiteSettings(db);
    if (!contactEmail) {
      log.warn('contact message stored but not mailed: no contact email in the site settings');
      return null;
    }
    return await sendMail(db, config, contactMail(contactEmail, m, adminUrl));
  } catch (e) {
    log.error('contact message stored but mailing it failed', { error: e instanceof Error ? e.message : String(e) });
    return null;
  }
}
