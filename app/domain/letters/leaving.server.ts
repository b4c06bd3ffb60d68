import type { DB } from '~db/index';
import { leave } from '~/domain/subscribers/leave.server';
import { subscriberById } from '~/domain/subscribers/subscribers.server';
import { verifyUnsubscribeToken } from '~/domain/subscribers/unsubscribe-token.server';

/** The body a mail client posts for a one-click unsubscribe (RFC 8058). */
export const ONE_CLICK_FIELD = 'List-Unsubscribe';
export const ONE_CLICK_VALUE = 'One-Click';

export const isOneClickBody = (form: FormData): boolean => form.get(ONE_CLICK_FIELD) === ONE_CLICK_VALUE;

/**
 * Leaves the list with a letter's signed link (ADR 022): at once, for good, idempotent, the one way
 * every door leaves (`leave`: the list's row and every consent that fed it). Returns false for a
 * token this site did not sign (or a subscriber since erased). Transactional mail (receipts,
 * sign-in links) is not concerned: it never reads this list.
 */
export async function leaveWithToken(db: DB, appSecret: string, token: string, source: 'one-click' | 'page' | 'mailto', now = new Date()): Promise<boolean> {
  const id = verifyUnsubscribeToken(appSecret, token);
  // Stryker disable next-line ConditionalExpression: without it an unsigned token looks up no subscriber and ends the same; it spares the query
  if (!id) return false;
  const subscriber = await subscriberById(db, id);
  if (!subscriber) return false;
  await leave(db, subscriber.email, source, { now });
  return true;
}

/** The subject of the List-Unsubscribe mailto: `unsubscribe <token>` (letterMail writes it). */
export const mailtoSubject = (token: string): string => `unsubscribe ${token}`;

/**
 * The token in the subject of a reader's unsubscribe mail (their client may prefix it, "Re:",
 * "Fwd:", or fold it); undefined when there is none.
 */
export function tokenInSubject(subject: string): string | undefined {
  return /\bunsubscribe\s+([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)/i.exec(subject)?.[1];
}

/**
 * An unsubscribe mail forwarded by the provider (the List-Unsubscribe mailto): the reader whose
 * token its subject carries leaves at once. A replay, or a mail without a valid token, changes
 * nothing. Returns whether someone named by the subject was found.
 */
export async function leaveByMail(db: DB, appSecret: string, subject: string, now = new Date()): Promise<boolean> {
  const token = tokenInSubject(subject);
  return token ? leaveWithToken(db, appSecret, token, 'mailto', now) : false;
}

/** Whether a token names a subscriber (the GET page shows its button only then). */
export const tokenNamesSomeone = (appSecret: string, token: string): boolean => verifyUnsubscribeToken(appSecret, token) !== undefined;
