import type { DB } from '~db/index';
import { audit, type Actor } from '~/domain/audit/audit.server';
import { getPaymentSettings, paymentReadiness } from '~/domain/donations/providers/settings.server';
import { domainOf } from '~/domain/letters/dns';
import { passedDomain } from '~/domain/letters/dns-passed.server';
import { getSender } from '~/domain/letters/sender.server';
import { missingFields } from '~/domain/receipts/settings';
import { getReceiptSettings } from '~/domain/receipts/settings.server';
import { getSiteSettings } from '~/domain/settings/site-settings.server';
import { CONTACT_FALLBACKS } from '~/domain/settings/site-settings';
import { putSettingDocument, readSettingDocument } from '~/lib/settings-document.server';

/**
 * From install to the first gift without a manual (issue 43, ADR 037): the dashboard's setup
 * checklist, shown to Admins until every step is done. Each step links to its screen and is ticked
 * by what is configured (the settings as saved), never by a click; an Admin may hide the list
 * before that (audited).
 */
export type SetupStepKey = 'identity' | 'receipts' | 'paymentsTest' | 'paymentsLive' | 'membership' | 'sender' | 'dns' | 'import';

export interface SetupStep {
  key: SetupStepKey;
  label: string;
  href: string;
  done: boolean;
}

export interface SetupChecklist {
  steps: SetupStep[];
  done: boolean;
  dismissed: boolean;
}

/** Where the import screen lives (ADR 036). */
export const IMPORT_PATH = '/admin/imports';
const DISMISSED_KEY = 'dashboard.setupDismissed';

/** Whether a file was imported: an import carried to its end and not undone (ADR 036). */
export async function importsDone(db: DB): Promise<boolean> {
  return (await db.selectFrom('imports').select('id').where('status', '=', 'done').limit(1).executeTakeFirst()) !== undefined;
}

/** The organisation's own address and contact email, not the demonstration's the first start writes. */
const identified = (s: { address: string; contactEmail: string }) =>
  Boolean(s.address.trim() && s.contactEmail.trim()) && s.address !== CONTACT_FALLBACKS.address && s.contactEmail !== CONTACT_FALLBACKS.contactEmail;

export async function setupChecklist(db: DB, appSecret: string): Promise<SetupChecklist> {
  const [site, receipts, payments, types, sender, passed, imported, dismissed] = await Promise.all([
    getSiteSettings(db),
    getReceiptSettings(db),
    getPaymentSettings(db, appSecret),
    db.selectFrom('membership_types').select('id').limit(1).execute(),
    getSender(db),
    passedDomain(db),
    importsDone(db),
    readSettingDocument(db, DISMISSED_KEY),
  ]);
  const pay = paymentReadiness(payments);
  const senderDomain = sender.sender ? domainOf(sender.sender.email)?.toLowerCase() : undefined;
  const steps: SetupStep[] = [
    { key: 'identity', label: 'L’identité de l’organisation (adresse, courriel de contact)', href: '/admin/settings', done: identified(site) },
    { key: 'receipts', label: 'Les reçus fiscaux (dénomination, SIREN ou RNA, signataire), activés', href: '/admin/receipts/parametres', done: receipts.enabled && missingFields(receipts).length === 0 },
    { key: 'paymentsTest', label: 'Un moyen de paiement, d’abord en mode test', href: '/admin/payments', done: pay.configured },
    { key: 'paymentsLive', label: 'Les clés de production d’un moyen de paiement', href: '/admin/payments', done: pay.configured && pay.live },
    { key: 'membership', label: 'Les types d’adhésion', href: '/admin/adhesions/parametres', done: types.length > 0 },
    { key: 'sender', label: 'L’expéditeur des lettres d’information', href: '/admin/lettres/expediteur', done: Boolean(sender.sender) },
    { key: 'dns', label: 'La vérification DNS du domaine d’envoi (SPF, DKIM, DMARC)', href: '/admin/lettres/dns', done: Boolean(senderDomain && passed === senderDomain) },
    { key: 'import', label: 'L’import des donateurs et des dons de l’ancien outil', href: IMPORT_PATH, done: imported },
  ];
  return { steps, done: steps.every((s) => s.done), dismissed: Boolean((dismissed.value as { dismissed?: boolean } | null)?.dismissed) };
}

/** An Admin hides the list before every step is done: recorded and audited. */
export async function dismissSetup(db: DB, actor: Actor, left: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await putSettingDocument(trx, DISMISSED_KEY, { dismissed: true, by: actor.id, at: new Date().toISOString() });
    await audit(trx, actor, 'dashboard.setup_dismissed', 'Liste de mise en route', { stepsLeft: left });
  });
}
