import type { DB } from '~db/index';
import { withdrawNewsletter } from '~/domain/donors/consent.server';
import { unsubscribe } from '~/domain/subscribers/subscribers.server';
import { verifyUnsubscribeToken } from '~/domain/subscribers/unsubscribe-token.server';

/** The body a mail client posts for a one-click unsubscribe (RFC 8058). */
export const ONE_CLICK_FIELD = 'List-Unsubscribe';
export const ONE_CLICK_VALUE = 'One-Click';

export const isOneClickBody = (form: FormData): boolean => form.get(ONE_CLICK_FIELD) === ONE_CLICK_VALUE;

/**
 * Leaves the list with a letter's signed link (ADR 022): at once, for good, idempotent. A donor's
 * newsletter consent given on the donation form is withdrawn too, so that it does not bring the
 * address back. Returns false for a token this site did not sign (or a subscriber since erased).
 * Transactional mail (receipts, sign-in links) is not concerned: it never reads this list.
 */
export async function leaveWithToken(db: DB, appSecret: string, token: string, source: 'one-click' | 'page', now = new Date()): Promise<boolean> {
  const id = verifyUnsubscribeToken(appSecret, token);
  // Stryker disable next-line ConditionalExpression: without it an unsigned token looks up no subscriber and ends the same; it spares the query
  if (!id) return false;
  const left = await unsubscribe(db, id, source, now);
  if (!left) return false;
  await withdrawNewsletter(db, left.email, now);
  return true;
}

/** Whether a token names a subscriber (the GET page shows its button only then). */
export const tokenNamesSomeone = (appSecret: string, token: string): boolean => verifyUnsubscribeToken(appSecret, token) !== undefined;
