import { describe, expect, it } from 'vitest';
import { mailText } from '~/domain/donations/disputes.server';
import type { Donation } from '~/domain/donations/ledger.server';
import type { PaymentDispute } from '~/domain/donations/providers/provider';
import type { Receipt } from '~/domain/receipts/register.server';

/** What the Admins read of a dispute (ADR 027), for the cases the webhook tests do not reach. */
const gift = (over: Partial<Donation> = {}) => ({ id: 'gift-1', purpose: 'gift', amount_minor: 2000, currency: 'EUR', status: 'succeeded', succeeded_at: null, donor_name: null, donor_email: null, ...over }) as Donation;
const dispute = (over: Partial<PaymentDispute> = {}): PaymentDispute => ({ ref: 'dp_9', outcome: 'lost', reason: 'fraudulent', reasonLabel: 'paiement frauduleux selon le titulaire', amountMinor: 2000, currency: 'EUR', ...over });

describe('the Admins’ mail of a dispute', () => {
  it('names every receipt a lost dispute cancelled', () => {
    const cancelled = [{ number: 'RF-2026-000001' }, { number: 'RF-2026-000002' }] as Receipt[];
    const { paragraphs } = mailText(gift(), dispute(), true, { changed: true, cancelledReceipts: cancelled });
    expect(paragraphs[0]).toBe('Un don de 20,00 € a été contesté (paiement frauduleux selon le titulaire ; litige dp_9) : il est compté comme remboursé et son reçu est annulé (RF-2026-000001, RF-2026-000002).');
  });

  it('says the payment’s date in Paris, or that it was never confirmed, and who paid, or that nobody is known', () => {
    expect(mailText(gift(), dispute({ outcome: 'open' }), true, { changed: false }).paragraphs[1]).toBe('Paiement non confirmé, de donateur inconnu, référence gift-1.');
    expect(mailText(gift({ succeeded_at: '2026-03-05T23:30:00.000Z', donor_email: 'a@example.org' }), dispute({ outcome: 'open' }), true, { changed: false }).paragraphs[1]).toBe('Paiement du 6 mars 2026, de a@example.org, référence gift-1.');
  });

  it('speaks of dues as dues', () => {
    const won = mailText(gift({ purpose: 'dues' }), dispute({ outcome: 'won' }), true, { changed: false });
    expect(won.subject).toBe('Contestation gagnée : une cotisation de 20,00 €');
    expect(won.paragraphs[0]).toBe('La contestation de la cotisation de 20,00 € est close en faveur de la fondation (paiement frauduleux selon le titulaire ; litige dp_9) : rien ne change, l’argent n’a pas été repris.');
    expect(mailText(gift({ purpose: 'dues' }), dispute({ outcome: 'open' }), true, { changed: false }).paragraphs[0]).toMatch(/^Une cotisation de 20,00 € a été contestée auprès de la banque du payeur/);
  });
});
