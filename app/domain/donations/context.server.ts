import { createHash } from 'node:crypto';
import type { DB } from '~db/index';
import type { Env } from '~/lib/env.server';
import type { Storage } from '~/lib/storage.server';
import type { ReceiptContext } from '~/domain/receipts/register.server';
import type { PaymentSettings } from './providers/settings.server';
import type { StartPace } from './start-pace.server';

/** What every payment operation needs: the database, the settings (secrets in clear) and where we live. */
export interface DonationDeps {
  db: DB;
  settings: PaymentSettings;
  env: Env;
  /**
   * Our public origin, for links in mails, return URLs and callbacks: PUBLIC_URL, or a loopback
   * address the request came to; undefined when the request named a Host we cannot trust (ADR 010).
   */
  publicUrl: string | undefined;
  /** Media storage (a receipt's signature image); without it receipts print the typed signature only. */
  storage?: Storage;
  /** The app secret, for signed links in mails (the member card's QR code); none without it. */
  secret?: string;
  /**
   * The receipt settings and the organisation as printed, read with the payment settings when the
   * request starts, so that the ledger's transaction takes a receipt number without reading them
   * (ADR 019). Absent, the ledger reads them itself, before its transaction.
   */
  receipts?: ReceiptContext;
  /**
   * The process's pace of payment starts (start-pace.server.ts), which donationDeps gives every
   * request; without it (a script, a test of the pipeline itself) starts are not paced.
   */
  pace?: StartPace;
}

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** A shared secret a provider sent, compared with ours in constant time (app/lib/signed-link.server.ts). */
export { sameSecret as safeEqual } from '~/lib/signed-link.server';
