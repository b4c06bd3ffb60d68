import type { Actor } from '~/domain/audit/audit.server';
import { mailConfigFor, sendMail, type MailConfig, type MailResult } from '~/lib/mail.server';
import { log } from '~/lib/log.server';
import { trustedOrigin } from '~/lib/origin.server';
import { runtime } from '~/lib/runtime.server';
import { failedSignInsMail, invitationMail, resetMail } from './mails.server';
import { invitationPath, LOGIN_PATH, resetPath } from './paths';
import { TOKEN_TTL_MS, type User } from './users.server';

/** The sender: MAIL_FROM, else a no-reply address at the trusted origin's host, never the request's own word. */
function mailConfig(request: Request): MailConfig {
  return mailConfigFor(runtime().env, trustedOrigin(request));
}

/**
 * Invitation links point at PUBLIC_URL when set, else at the address the request came to: only a
 * signed-in Admin invites, and a Host can be forged only by whoever holds the session (ADR 010).
 */
function siteOrigin(request: Request): string {
  return runtime().publicUrl ?? new URL(request.url).origin;
}

export async function sendInvitation(request: Request, user: User, token: string, inviter: Actor): Promise<{ link: string; mail: MailResult }> {
  const link = `${siteOrigin(request)}${invitationPath(token)}`;
  const days = Math.round(TOKEN_TTL_MS.invitation / 86_400_000);
  const mail = await sendMail(runtime().db, mailConfig(request), invitationMail(user, link, inviter.name, days));
  return { link, mail };
}

export async function sendReset(request: Request, user: User, token: string): Promise<MailResult> {
  const origin = trustedOrigin(request);
  if (!origin) {
    log.warn('password-reset mail not sent: PUBLIC_URL is not set and the request came to a host that is not trusted');
    return { status: 'failed', id: '', error: 'PUBLIC_URL n’est pas configurée' };
  }
  const link = `${origin}${resetPath(token)}`;
  const minutes = Math.round(TOKEN_TTL_MS.reset / 60_000);
  return sendMail(runtime().db, mailConfig(request), resetMail(user, link, minutes));
}

/** Warns an account's owner of repeated failed sign-ins (the link goes to the sign-in page only). */
export async function sendFailuresNotice(request: Request, user: { name: string; email: string }, failures: number): Promise<MailResult> {
  const link = `${trustedOrigin(request) ?? ''}${LOGIN_PATH}`;
  return sendMail(runtime().db, mailConfig(request), failedSignInsMail(user, failures, link));
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
