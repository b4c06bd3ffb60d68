import type { DB } from '~db/index';
import type { DonationTable } from '~db/schema';
import type { PaymentEvent } from '~/domain/donations/events.server';
import { claimDedicationNotice } from '~/domain/donations/ledger.server';
import type { Env } from '~/lib/env.server';
import { isLang, translate, type Lang } from '~/lib/i18n';
import { messagesFor } from '~/lib/i18n.server';
import { escapeMailHtml, mailConfigFor, sendMail } from '~/lib/mail.server';

/**
 * Once a dedicated gift is confirmed, tells the person named (when the donor gave an address),
 * once, in the donor's language. The amount is not disclosed.
 */
export async function sendDedicationNotice(deps: { db: DB; env: Env; publicUrl: string | undefined }, d: DonationTable): Promise<void> {
  if (!d.dedication_email || !d.dedication_name || !d.dedication_kind) return;
  if (!(await claimDedicationNotice(deps.db, d.id))) return;
  const lang: Lang = isLang(d.language) ? d.language : 'fr';
  const m = messagesFor(lang);
  const vars = { donor: d.donor_name || m.giving.someone, name: d.dedication_name };
  const memory = d.dedication_kind === 'memory';
  const lines = [
    translate(m, 'giving.noticeGreeting'),
    '',
    translate(m, memory ? 'giving.noticeMemoryBody' : 'giving.noticeHonorBody', vars),
    ...(d.dedication_message ? [translate(m, 'giving.noticeMessage', { message: d.dedication_message })] : []),
    '',
    translate(m, 'giving.noticeThanks'),
  ];
  await sendMail(deps.db, mailConfigFor(deps.env, deps.publicUrl), {
    to: d.dedication_email,
    subject: translate(m, memory ? 'giving.noticeMemorySubject' : 'giving.noticeHonorSubject', vars),
    text: lines.join('\n'),
    html: lines.map((l) => (l ? `<p>${escapeMailHtml(l)}</p>` : '')).join('\n'),
  });
}

/** The subscriber: a succeeded gift's dedication is announced (ADR 019); other purposes (dues) have none. */
export async function noticeDedication(deps: { db: DB; env: Env; publicUrl: string | undefined }, e: PaymentEvent): Promise<void> {
  if (e.type === 'payment.succeeded' && e.purpose === 'gift') await sendDedicationNotice(deps, e.payment);
}
