/**
 * The renewal reminders' job (ADR 021): once a day or more, each membership whose step of the
 * schedule is due (reminders.ts) is claimed by inserting its row in `membership_reminders`
 * (membership, period end, step: the primary key), so that two instances, or a restart, send
 * each step once. A member with an e-mail address is mailed in their language with a renewal
 * link; one without is listed for a paper mailing (channel 'paper'). A mail that fails gives its
 * claim back, to be tried at the next run.
 */
import type { DB } from '~db/index';
import { audit, type Actor } from '~/domain/audit/audit.server';
import type { Env } from '~/lib/env.server';
import { formatDay } from '~/lib/intl';
import { LOCALES, isLang, translate, type Lang, type MessageKey } from '~/lib/i18n';
import { messagesFor } from '~/lib/i18n.server';
import { escapeMailHtml as esc, mailConfigFor, sendMail } from '~/lib/mail.server';
import type { MemberLang } from './forms';
import { parisDay } from '~/lib/paris';
import { expiryFrom, signature, signatureMatches, stillValid } from '~/lib/signed-link.server';
import { addDays } from './period';
import { CATCH_UP_DAYS, dueStep } from './reminders';
import { getMembershipSettings } from './settings.server';
import { computedState } from './status';
import { listTypes } from './types.server';
import { siteUrl } from '~/lib/lang-path';

export interface ReminderDeps {
  db: DB;
  env: Pick<Env, 'SMTP_URL' | 'MAIL_FROM'>;
  /** The trusted origin for the renewal link; without one, the link carries the path only. */
  publicUrl: string | undefined;
  /** The app secret that signs renewal links. */
  secret: string;
}

export interface ReminderRun {
  emailed: number;
  paper: number;
  failed: number;
}

/** Renewal links stay valid this long (a reminder 30 days before, then grace). */
export const RENEWAL_LINK_MS = 120 * 24 * 60 * 60 * 1000;

/** What a renewal link signs: its purpose, the membership and the expiry. */
const renewalMessage = (membershipId: string, expires: number) => `renew\n${membershipId}\n${expires}`;

/** `<membershipId>.<expiry>.<hmac>`: renews one membership, without signing in, until the expiry. */
export function renewalToken(secret: string, membershipId: string, now = new Date()): string {
  const expires = expiryFrom(now, RENEWAL_LINK_MS);
  return `${membershipId}.${expires}.${signature(secret, renewalMessage(membershipId, expires))}`;
}

/** The membership a renewal token names, or null when forged, altered or expired. */
export function membershipOfRenewalToken(secret: string, token: string, now = new Date()): string | null {
  const m = /^([\w-]{1,64})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return null;
  const expires = Number(m[2]);
  return stillValid(expires, now) && signatureMatches(secret, renewalMessage(m[1], expires), m[3]) ? m[1] : null;
}

/** The renewal page's address in the member's language. */
export function renewalUrl(publicUrl: string | undefined, lang: Lang, token: string): string {
  return siteUrl(publicUrl, lang, `/devenir-membre?renouveler=${encodeURIComponent(token)}`);
}


/** Sends the reminders due on `now`'s Paris day; returns how many went by mail, on paper, or failed. */
export async function runMembershipReminders(deps: ReminderDeps, now = new Date()): Promise<ReminderRun> {
  const { db } = deps;
  const today = parisDay(now.toISOString());
  const settings = await getMembershipSettings(db);
  const steps = settings.reminderSteps;
  const run: ReminderRun = { emailed: 0, paper: 0, failed: 0 };
  if (steps.length === 0) return run;
  // Only ends a step of the schedule can be due for today, catching up included.
  const candidates = await db
    .selectFrom('memberships')
    .select(['id', 'number', 'first_name', 'last_name', 'email', 'language', 'type_id', 'ends_on'])
    .where('exempt', '=', 0)
    .where('state_override', 'is', null)
    .where('ends_on', '>=', addDays(today, -(steps[steps.length - 1] + CATCH_UP_DAYS)))
    .where('ends_on', '<=', addDays(today, -steps[0]))
    .execute();
  if (candidates.length === 0) return run;
  const types = await listTypes(db);
  for (const m of candidates) {
    const endsOn = m.ends_on as string;
    const sent = await db.selectFrom('membership_reminders').select('step').where('membership_id', '=', m.id).where('period_end', '=', endsOn).execute();
    const step = dueStep({ state: computedState({ exempt: false, endsOn }, today, settings.graceDays), overridden: false, endsOn, sent: sent.map((s) => s.step) }, steps, today);
    if (step === null) continue;
    const channel = m.email ? 'email' : 'paper';
    const claimed = await db
      .insertInto('membership_reminders')
      .values({ membership_id: m.id, period_end: endsOn, step, channel, claimed_at: now.toISOString(), sent_at: null })
      .onConflict((oc) => oc.columns(['membership_id', 'period_end', 'step']).doNothing())
      .executeTakeFirst();
    // Another instance claimed it first.
    if (Number(claimed.numInsertedOrUpdatedRows ?? 0) !== 1) continue;
    if (channel === 'paper') {
      run.paper++;
      continue;
    }
    const lang: MemberLang = isLang(m.language) ? m.language : 'fr';
    const type = types.find((t) => t.id === m.type_id);
    const result = await mailReminder(deps, m.email, lang, step, {
      name: `${m.first_name} ${m.last_name}`,
      type: type ? type.translations[lang].name : '',
      number: String(m.number),
      date: formatDay(endsOn, LOCALES[lang]),
      url: renewalUrl(deps.publicUrl, lang, renewalToken(deps.secret, m.id, now)),
    });
    const claim = db.deleteFrom('membership_reminders').where('membership_id', '=', m.id).where('period_end', '=', endsOn).where('step', '=', step);
    if (result.status === 'failed') {
      // Given back: the next run tries again (within the catch-up days).
      await claim.execute();
      run.failed++;
    } else {
      await db.updateTable('membership_reminders').set({ sent_at: new Date().toISOString() }).where('membership_id', '=', m.id).where('period_end', '=', endsOn).where('step', '=', step).execute();
      run.emailed++;
    }
  }
  return run;
}

async function mailReminder(deps: ReminderDeps, to: string, lang: Lang, step: number, vars: Record<string, string>) {
  const m = messagesFor(lang);
  const when = step < 0 ? 'before' : step === 0 ? 'today' : 'after';
  const paragraphs = [translate(m, `membershipMail.${when}` as MessageKey, vars), translate(m, 'membershipMail.renew', vars), translate(m, 'membershipMail.signature', vars)];
  return sendMail(deps.db, mailConfigFor(deps.env, deps.publicUrl), {
    to,
    subject: translate(m, `membershipMail.${when}Subject` as MessageKey, vars),
    text: paragraphs.join('\n\n'),
    html: paragraphs.map((p) => `<p>${esc(p).replace(/(https?:\/\/\S+)/g, '<a href="$1">$1</a>')}</p>`).join('\n'),
  });
}

export interface ReminderLogEntry {
  membershipId: string;
  number: number;
  name: string;
  step: number;
  periodEnd: string;
  channel: string;
  claimedAt: string;
  sentAt: string | null;
  /** Paper mailings only: the postal address. */
  address: string;
}

/** The reminders' log, newest first: what went by mail, and what is to be posted (paper). */
export async function reminderLog(db: DB, limit = 200): Promise<ReminderLogEntry[]> {
  const rows = await db
    .selectFrom('membership_reminders as r')
    .innerJoin('memberships as m', 'm.id', 'r.membership_id')
    .select(['r.membership_id', 'm.number', 'm.first_name', 'm.last_name', 'r.step', 'r.period_end', 'r.channel', 'r.claimed_at', 'r.sent_at', 'm.address', 'm.postal_code', 'm.city', 'm.country'])
    .orderBy('r.claimed_at', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    membershipId: r.membership_id,
    number: r.number,
    name: `${r.first_name} ${r.last_name}`,
    step: r.step,
    periodEnd: r.period_end,
    channel: r.channel,
    claimedAt: r.claimed_at,
    sentAt: r.sent_at,
    address: r.channel === 'paper' ? [r.address, `${r.postal_code} ${r.city}`.trim(), r.country].filter(Boolean).join(', ') : '',
  }));
}

/** A paper reminder posted by staff: dated, audited. False when it is not one waiting to be posted. */
export async function markPosted(db: DB, actor: Actor, key: { membershipId: string; periodEnd: string; step: number }): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable('membership_reminders')
      .set({ sent_at: new Date().toISOString() })
      .where('membership_id', '=', key.membershipId)
      .where('period_end', '=', key.periodEnd)
      .where('step', '=', key.step)
      .where('channel', '=', 'paper')
      .where('sent_at', 'is', null)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) return false;
    await audit(trx, actor, 'membership.reminder.posted', 'Rappel d’adhésion posté', { ...key });
    return true;
  });
}
