/**
 * What a refused or failed delivery means for the recipient and the queue (ADR 022), in one place:
 * - a permanent refusal (a 5xx reply) suppresses the address: no letter goes to it again;
 * - a temporary refusal (4xx) or a server that could not be reached before the message was handed
 *   over: nothing was delivered, the row goes back to the queue;
 * - anything else (the connection dropped during or after the transfer…): the mail may have left;
 *   the row is marked failed and never sent again. nodemailer reports a connection closed after
 *   the whole message went out as it reports one refused (CONN, ECONNECTION): a connection failure
 *   is a retry only when the transport had not read a byte of the message (`messageRead`).
 */
export type FailureKind = 'suppress' | 'retry' | 'failed';

/** nodemailer's codes for failures before any message data was sent. */
const BEFORE_TRANSFER = new Set(['ECONNECTION', 'EDNS', 'EAUTH', 'ETLS', 'ENOAUTH']);

export function classifyFailure(err: { responseCode?: number; code?: string; command?: string; messageRead?: boolean }): FailureKind {
  const code = err.responseCode;
  if (code !== undefined && code >= 500 && code <= 599) return 'suppress';
  if (code !== undefined && code >= 400 && code <= 499) return 'retry';
  // The connection failed after the message was handed over: it may have been delivered.
  if (err.messageRead) return 'failed';
  // Failed while connecting (refused, unreachable, greeting never came): no message was sent.
  if (err.command === 'CONN') return 'retry';
  if (err.code !== undefined && BEFORE_TRANSFER.has(err.code)) return 'retry';
  return 'failed';
}

/** After how many failures in a row (refusals of an address excepted) a sending pauses itself. */
export const MAX_ERRORS_IN_A_ROW = 5;

/** Whether this failure counts towards pausing: an address refused for good says nothing about the server. */
export const countsTowardsPause = (kind: FailureKind): boolean => kind !== 'suppress';

/** The reason shown on the letter's page when it paused itself, in French. */
export function pauseReason(errors: number, last: string): string {
  return `Envoi mis en pause automatiquement après ${errors} échecs de suite. Dernière erreur : ${last}`;
}
