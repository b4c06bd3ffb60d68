/**
 * The deposit slip of a batch ("bordereau de remise de chèques", ADR 028): the batch's number and
 * date, the account credited, each cheque (number, bank, drawer, amount) in the order typed, the count and the total —
 * the cheques that count only (one taken back is not deposited). Drawn by the shared one-table
 * layout; the same batch gives the same bytes (dated by its deposit, or its opening).
 */
import type { DB } from '~db/index';
import { euroFigures } from '~/domain/receipts/words';
import { getReceiptSettings } from '~/domain/receipts/settings.server';
import { renderTablePdf } from '~/lib/table-pdf.server';
import { dayFr } from '~/lib/paris';
import { getBatch } from './batches.server';
import { offlineGiftLines } from './gifts.server';
import { batchTotals, countLabel } from './totals';
import { friendlyIban, type DepositAccount } from './forms';
import { getOfflineGiftSettings } from './settings.server';

const COLUMNS = [
  { title: 'N°', width: 30 },
  { title: 'N° de chèque', width: 85 },
  { title: 'Banque', width: 120 },
  { title: 'Tireur', width: 170 },
  { title: 'Montant', width: 90, align: 'right' as const },
];

/** The slip's lines before the table (tests read them back): the account credited, once an Admin has set it. */
export function slipHeading(number: number, day: string, remitter: string, account: DepositAccount | null = null): string[] {
  const credited = account ? [`Compte à créditer : ${friendlyIban(account.iban)} (titulaire : ${account.holder})`] : [];
  return ['Bordereau de remise de chèques', `Remise n° ${number} du ${dayFr(day)}`, `Remettant : ${remitter}`, ...credited];
}

/** The slip of a batch, or undefined for an unknown batch. */
export async function depositSlipPdf(db: DB, batchId: string): Promise<{ pdf: Buffer; number: number } | undefined> {
  const batch = await getBatch(db, batchId);
  if (!batch) return undefined;
  const day = batch.deposited_on ?? batch.opened_on;
  const cheques = (await offlineGiftLines(db, batchId)).filter((l) => l.status === 'succeeded');
  const totals = batchTotals(cheques);
  const remitter = (await getReceiptSettings(db)).legalName || 'Fondation THV';
  const pdf = await renderTablePdf({
    heading: slipHeading(batch.number, day, remitter, (await getOfflineGiftSettings(db)).depositAccount),
    columns: COLUMNS,
    rows: cheques.map((c, i) => [String(i + 1), c.reference, c.bank, c.drawer, euroFigures(c.amountCents)]),
    closing: [`Nombre de chèques : ${totals.count} (${countLabel(totals.count)})`, `Total de la remise : ${euroFigures(totals.totalCents)}`],
    createdAt: new Date(`${day}T12:00:00.000Z`),
  });
  return { pdf, number: batch.number };
}
