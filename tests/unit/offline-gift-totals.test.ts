import { describe, expect, it } from 'vitest';
import { BATCH_STATUSES, BATCH_STATUS_LABELS, batchTotals, canMove, checkDeposit, checkReconciliation, countLabel, isOpen } from '~/domain/offline-gifts/totals';

const euros = (c: number) => `${(c / 100).toFixed(2).replace('.', ',')} €`;

describe('a batch of cheques in figures (ADR 028)', () => {
  it('counts and sums only the cheques that still count', () => {
    expect(batchTotals([])).toEqual({ count: 0, totalCents: 0 });
    expect(batchTotals([{ amountCents: 12050, status: 'succeeded' }, { amountCents: 5000, status: 'succeeded' }])).toEqual({ count: 2, totalCents: 17050 });
    expect(batchTotals([{ amountCents: 50000, status: 'cancelled' }, { amountCents: 4000, status: 'succeeded' }, { amountCents: 700, status: 'refunded' }])).toEqual({ count: 1, totalCents: 4000 });
  });

  it('moves forward only: open, deposited, reconciled', () => {
    expect(BATCH_STATUSES).toEqual(['open', 'deposited', 'reconciled']);
    expect(canMove('open', 'deposited')).toBe(true);
    expect(canMove('deposited', 'reconciled')).toBe(true);
    expect(canMove('open', 'reconciled')).toBe(false);
    expect(canMove('deposited', 'open')).toBe(false);
    expect(canMove('reconciled', 'deposited')).toBe(false);
    expect(canMove('reconciled', 'open')).toBe(false);
    expect(canMove('open', 'open')).toBe(false);
    expect(isOpen('open')).toBe(true);
    expect(isOpen('deposited')).toBe(false);
    expect(BATCH_STATUS_LABELS).toEqual({ open: 'En cours de saisie', deposited: 'Déposée à la banque', reconciled: 'Rapprochée' });
  });

  it('deposits an open batch holding at least one cheque', () => {
    expect(checkDeposit('open', { count: 1, totalCents: 100 })).toEqual({ ok: true });
    expect(checkDeposit('open', { count: 0, totalCents: 0 })).toEqual({ ok: false, message: 'Une remise vide ne peut pas être déposée : saisissez au moins un chèque.' });
    expect(checkDeposit('deposited', { count: 3, totalCents: 100 })).toEqual({ ok: false, message: 'Cette remise a déjà été déposée.' });
    expect(checkDeposit('reconciled', { count: 3, totalCents: 100 })).toEqual({ ok: false, message: 'Cette remise a déjà été déposée.' });
  });

  it('reconciles a deposited batch with exactly its total, and names the difference otherwise', () => {
    const totals = { count: 3, totalCents: 20050 };
    expect(checkReconciliation('deposited', totals, 20050, euros)).toEqual({ ok: true });
    expect(checkReconciliation('deposited', totals, 20000, euros)).toEqual({ ok: false, message: 'Le montant crédité (200,00 €) ne correspond pas au total de la remise (200,50 €) : écart de 0,50 €.' });
    expect(checkReconciliation('deposited', totals, 20100, euros)).toEqual({ ok: false, message: 'Le montant crédité (201,00 €) ne correspond pas au total de la remise (200,50 €) : écart de 0,50 €.' });
    expect(checkReconciliation('open', totals, 20050, euros)).toEqual({ ok: false, message: 'Déposez la remise avant de la rapprocher.' });
    expect(checkReconciliation('reconciled', totals, 20050, euros)).toEqual({ ok: false, message: 'Cette remise est déjà rapprochée.' });
  });

  it('says the count in French', () => {
    expect(countLabel(0)).toBe('0 chèques');
    expect(countLabel(1)).toBe('1 chèque');
    expect(countLabel(2)).toBe('2 chèques');
  });
});
