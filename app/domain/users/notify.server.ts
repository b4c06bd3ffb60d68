import type { Actor } from '~/domain/audit/audit.server';
import { sendMail, type MailConfig, type MailResult } from '~/lib/mail.server';
import { runtime } from '~/lib/runtime.server';
import { invitationMail, resetMail } from './mails.server';
import { invitationPath, resetPath } from './paths';
import { TOKEN_TTL_MS, type User } from './users.server';

function mailConfig(request: Request): MailConfig {
  const env = runtime().env;
  const host = new URL(siteOrigin(request)).hostname;
  return { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM || `Fondation THV <no-reply@${host}>` };
}

/** Links in mails point at PUBLIC_URL when set, else at the address the request came to. */
export function siteOrigin(request: Request): string {
  return runtime().publicUrl ?? new URL(request.url).origin;
}

export async function sendInvitation(request: Request, user: User, token: string, inviter: Actor): Promise<{ link: string; mail: MailResult }> {
  const link = `${siteOrigin(request)}${invitationPath(token)}`;
  const days = Math.round(TOKEN_TTL_MS.invitation / 86_400_000);
  const mail = await sendMail(runtime().db, mailConfig(request), invitationMail(user, link, inviter.name, days));
  return { link, mail };
}

export async function sendReset(request: Request, user: User, token: string): Promise<MailResult> {
  const link = `${siteOrigin(request)}${resetPath(token)}`;
  const minutes = Math.round(TOKEN_TTL_MS.reset / 60_000);
  return sendMail(runtime().db, mailConfig(request), resetMail(user, link, minutes));
}

/** What the screen says about a mail: where it went, in plain French. */
export function mailStatusText(result: MailResult, to: string): string {
  switch (result.status) {
    case 'sent':
      return `Email envoyé à ${to}.`;
    case 'outbox':
      return "L'envoi d'emails n'est pas configuré (SMTP_URL) : le message n'a pas été envoyé, il est conservé dans la boîte d'envoi du serveur.";
    case 'failed':
      return `L'email à ${to} n'a pas pu être envoyé (${result.error}).`;
  }
}
