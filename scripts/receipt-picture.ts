/**
 * The picture of a tax receipt shown in the tax receipts guide (docs/images/receipt.png, docs/guides/tax-receipts.md), made from the seed
 * data: a fresh SQLite database in a temporary folder is seeded as a new site is (its logo
 * included), given the tests' sample organisation (tests/support/receipts.ts), a card gift is confirmed through the ledger
 * (which issues its receipt as in production), and the receipt's PDF is rendered and turned
 * into a PNG by pdftoppm (poppler-utils). Run again after changing the layout:
 *
 *   npx tsx scripts/receipt-picture.ts            # writes docs/images/receipt.png
 *   npx tsx scripts/receipt-picture.ts out.png    # elsewhere
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrateToLatest, openDatabase } from '~db/index';
import { seedDefaults } from '~db/seed';
import { createAttempt, transition } from '~/domain/donations/ledger.server';
import { renderReceiptPdf } from '~/domain/receipts/pdf.server';
import { receiptsOfDonation } from '~/domain/receipts/register.server';
import { saveReceiptSettings } from '~/domain/receipts/settings.server';
import { diskStorage } from '~/lib/storage.server';
// The sample organisation and donor the tests use.
import { DONOR, ORGANISATION } from '../tests/support/receipts';

const out = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..', 'docs', 'images', 'receipt.png'));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'receipt-picture-'));
const handle = openDatabase({ dataDir: dir });
try {
  const { db } = handle;
  const storage = diskStorage(path.join(dir, 'media'));
  await migrateToLatest(db);
  await seedDefaults(db, storage);
  await saveReceiptSettings(db, { id: null, name: 'receipt-picture' }, ORGANISATION, 0);
  const gift = await createAttempt(db, { provider: 'stripe', amountMinor: 15_000, currency: 'EUR', eurCents: 15_000, frequency: 'once', language: 'fr', donorName: DONOR.name, donorEmail: 'awa@example.org', taxDetails: JSON.stringify(DONOR) });
  await transition(db, { id: gift.id }, 'succeeded');
  const [receipt] = await receiptsOfDonation(db, gift.id);
  const pdf = path.join(dir, 'receipt.pdf');
  fs.writeFileSync(pdf, await renderReceiptPdf(receipt, storage));
  fs.mkdirSync(path.dirname(out), { recursive: true });
  execFileSync('pdftoppm', ['-png', '-r', '90', '-singlefile', pdf, out.replace(/\.png$/, '')]);
  console.log(`${path.relative(process.cwd(), out)}: receipt ${receipt.number}`);
} finally {
  await handle.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
