/**
 * A deposit of cheques, in figures (ADR 028): what counts in a batch, its count and total, the
 * moves of its status, and whether the bank's credit matches it. Pure (no database, no React):
 * the batch screen, the deposit slip and the reconciliation read the same numbers here.
 * Shared with the browser.
 */

export const BATCH_STATUSES = ['open', 'deposited', 'reconciled'] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];

export const BATCH_STATUS_LABELS: Record<BatchStatus, string> = {
  open: 'En cours de saisie',
  deposited: 'Déposée à la banque',
  reconciled: 'Rapprochée',
};

/** A batch moves forward only: typed, then deposited, then matched with the bank's statement. */
const NEXT: Record<BatchStatus, BatchStatus | null> = { open: 'deposited', deposited: 'reconciled', reconciled: null };

export function canMove(from: BatchStatus, to: BatchStatus): boolean {
  return NEXT[from] === to;
}

/** Cheques are added to a batch, or taken out of it, only while it is being typed. */
export const isOpen = (status: string): boolean => status === 'open';

export interface BatchLine {
  amountCents: number;
  /** The ledger's status of the payment: only a gift that still counts ('succeeded') is in the totals. */
  status: string;
}

export interface BatchTotals {
  count: number;
  totalCents: number;
}

/** The cheques that count (not taken back) and their sum, in euro cents. */
export function batchTotals(lines: readonly BatchLine[]): BatchTotals {
  let count = 0;
  let totalCents = 0;
  for (const l of lines) {
    if (l.status !== 'succeeded') continue;
    count += 1;
    totalCents += l.amountCents;
  }
  return { count, totalCents };
}

export type DepositCheck = { ok: true } | { ok: false; message: string };

/** A batch may be deposited when it is being typed and holds at least one cheque that counts. */
export function checkDeposit(status: BatchStatus, totals: BatchTotals): DepositCheck {
  if (!canMove(status, 'deposited')) return { ok: false, message: 'Cette remise a déjà été déposée.' };
  if (totals.count === 0) return { ok: false, message: 'Une remise vide ne peut pas être déposée : saisissez au moins un chèque.' };
  return { ok: true };
}

/**
 * A deposited batch is reconciled when the bank credited exactly its total; any other figure is
 * refused with both amounts, so the difference can be looked for (a cheque mistyped, one rejected).
 */
export function checkReconciliation(status: BatchStatus, totals: BatchTotals, creditedCents: number, format: (cents: number) => string): DepositCheck {
  if (!canMove(status, 'reconciled')) return { ok: false, message: status === 'reconciled' ? 'Cette remise est déjà rapprochée.' : 'Déposez la remise avant de la rapprocher.' };
  if (creditedCents !== totals.totalCents) {
    return { ok: false, message: `Le montant crédité (${format(creditedCents)}) ne correspond pas au total de la remise (${format(totals.totalCents)}) : écart de ${format(Math.abs(creditedCents - totals.totalCents))}.` };
  }
  return { ok: true };
}

/** The screen's running line: "3 chèques — 150,00 €". */
export function countLabel(count: number): string {
  return count === 1 ? '1 chèque' : `${count} chèques`;
}
