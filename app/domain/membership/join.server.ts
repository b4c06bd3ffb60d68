/**
 * Joining and renewing online (/devenir-membre, ADR 021): what the page offers (the types with
 * dues, the methods configured, the statutes' address), a new member entered as pending and their
 * dues started through the pipeline (payments.server.ts), a renewal link's membership, and what a
 * return page can say of a membership after its payment.
 */
import type { DonationDeps } from '~/domain/donations/context.server';
import { isCfa } from '~/domain/means/means';
import { availableMethods } from '~/domain/donations/providers/settings.server';
import { payerReturn } from '~/domain/donations/returns.server';
import type { Lang } from '~/lib/i18n';
import { hitRateLimit } from '~/lib/rate-limit.server';
import { JOIN_METHODS, type JoinInput, type JoinMethod } from './join-form';
import { parisDay } from '~/lib/paris';
import { isDuesMethod, membershipOfPayment, startDues } from './payments.server';
import { createMember, getMember } from './register.server';
import { membershipOfRenewalToken } from './reminders.server';
import { getMembershipSettings } from './settings.server';
import { isCounted, type MembershipState } from './status';
import { getType, listTypes } from './types.server';

export interface OfferedType {
  id: string;
  name: string;
  description: string;
  duesCents: number;
  taxDeductible: boolean;
}

/** The types a visitor may join online: those with dues (a free type is an Admin's, for honorary members). */
export async function offeredTypes(deps: Pick<DonationDeps, 'db'>, lang: Lang): Promise<OfferedType[]> {
  return (await listTypes(deps.db))
    .filter((t) => t.duesCents > 0)
    .map((t) => ({ id: t.id, name: t.translations[lang].name, description: t.translations[lang].description, duesCents: t.duesCents, taxDeductible: t.taxDeductible }));
}

/**
 * The ways to pay offered on the page: the online ones configured, and always "je paie autrement".
 * Mobile money is offered through Flutterwave in CFA francs only: the dues are an amount in euros,
 * and only the CFA franc's fixed parity turns it into an exact amount without asking the payer (the
 * donate form's payment link and typed local amounts have no place in a fixed yearly fee).
 */
export function joinMethods(deps: Pick<DonationDeps, 'settings'>): JoinMethod[] {
  const on = availableMethods(deps.settings);
  const mm = deps.settings.mobileMoney;
  const mobileMoney = on.mobileMoney && mm.integrationType !== 'link' && isCfa(mm.currency);
  const offered: Record<Exclude<JoinMethod, 'other'>, boolean> = { card: on.card, paypal: on.paypal, mobileMoney, crypto: on.crypto };
  return [...JOIN_METHODS.filter((x): x is Exclude<JoinMethod, 'other'> => x !== 'other' && offered[x]), 'other'];
}

/** Submissions per address on /devenir-membre (joining and renewing): 20 every 10 minutes, as the donate form. */
export const JOIN_LIMIT = 20;
export const JOIN_WINDOW_MS = 10 * 60 * 1000;
export const joinLimit = (db: DonationDeps['db'], clientIp: string) => hitRateLimit(db, `join:${clientIp}`, JOIN_LIMIT, JOIN_WINDOW_MS);

export async function statutesUrl(deps: Pick<DonationDeps, 'db'>): Promise<string> {
  return (await getMembershipSettings(deps.db)).statutesUrl;
}

export type JoinOutcome = { kind: 'pay'; url: string } | { kind: 'pending'; membershipId: string } | { kind: 'refused'; field: 'type_id' | 'method' };

/**
 * A visitor's joining: the type must be one offered and the method one configured (checked here,
 * whatever the form said); the member is entered pending with the next number, in the page's
 * language; an online method starts the dues, "je paie autrement" leaves the membership pending
 * for an Admin to record the cheque, transfer or cash.
 */
export async function join(deps: DonationDeps, input: JoinInput, lang: Lang, productName: (typeName: string) => string): Promise<JoinOutcome> {
  const type = (await offeredTypes(deps, lang)).find((t) => t.id === input.type_id);
  if (!type) return { kind: 'refused', field: 'type_id' };
  if (!joinMethods(deps).includes(input.method)) return { kind: 'refused', field: 'method' };
  const { id } = await createMember(deps.db, null, {
    first_name: input.first_name,
    last_name: input.last_name,
    email: input.email,
    phone: input.phone,
    address: input.address,
    postal_code: input.postal_code,
    city: input.city,
    country: input.country,
    type_id: type.id,
    language: lang,
    exempt: false,
    news: input.news,
  });
  if (input.method === 'other') return { kind: 'pending', membershipId: id };
  const { url } = await startDues(deps, { membershipId: id, method: input.method, lang, kind: 'join', productName: productName(type.name) });
  return { kind: 'pay', url };
}

export interface RenewalView {
  token: string;
  membershipId: string;
  firstName: string;
  lastName: string;
  number: number;
  typeName: string;
  duesCents: number;
  endsOn: string | null;
  state: MembershipState;
}

/** What a renewal link opens: the membership it names (no sign-in), or null for a forged, expired or unpayable one. */
export async function renewalOf(deps: Pick<DonationDeps, 'db'>, secret: string, token: string, lang: Lang, now = new Date()): Promise<RenewalView | null> {
  const id = membershipOfRenewalToken(secret, token, now);
  if (!id) return null;
  const { graceDays } = await getMembershipSettings(deps.db);
  const m = await getMember(deps.db, id, parisDay(now.toISOString()), graceDays);
  const type = m && (await getType(deps.db, m.typeId));
  if (!m || !type || m.exempt || type.duesCents <= 0) return null;
  return { token, membershipId: id, firstName: m.firstName, lastName: m.lastName, number: m.number, typeName: type.translations[lang].name, duesCents: type.duesCents, endsOn: m.endsOn, state: m.state };
}

/**
 * Pays a renewal link's membership's dues online (any online method configured); the period
 * follows the old end (period.ts). `refused` for a method not offered, null for a link no longer valid.
 */
export async function renew(deps: DonationDeps, secret: string, token: string, method: string, lang: Lang, productName: (typeName: string) => string): Promise<{ url: string } | { refused: 'method' } | null> {
  if (!isDuesMethod(method) || !joinMethods(deps).includes(method)) return { refused: 'method' };
  const view = await renewalOf(deps, secret, token, lang);
  if (!view) return null;
  return startDues(deps, { membershipId: view.membershipId, method, lang, kind: 'renewal', productName: productName(view.typeName) });
}

export interface ReturnView {
  /**
   * 'active': the payment is verified and the membership counts; 'pending': not confirmed (yet);
   * 'unknown': no such dues payment; 'cancelled': the payer closed the provider's page (the page
   * says so on the cancel page, where, as here, only the provider's answer could change the payment).
   */
  state: 'active' | 'pending' | 'unknown' | 'cancelled';
  number: number | null;
  endsOn: string | null;
  emailed: boolean;
  /** The dues payment the return named. */
  paymentId?: string;
}

/**
 * The success page's question: the dues payment as its provider says now (the one road back,
 * donations/returns.server.ts: asked again, never the query string), and the membership it paid for.
 */
export async function duesReturn(deps: DonationDeps, query: URLSearchParams, now = new Date()): Promise<ReturnView> {
  const unknown: ReturnView = { state: 'unknown', number: null, endsOn: null, emailed: false };
  const { payment, cancelled, unconfirmed } = await payerReturn(deps, query);
  if (!payment || payment.purpose !== 'dues') return unknown;
  if (cancelled && payment.status !== 'succeeded') return { ...unknown, state: 'cancelled', paymentId: payment.id };
  const membershipId = await membershipOfPayment(deps.db, payment.id);
  if (!membershipId) return unknown;
  const { graceDays } = await getMembershipSettings(deps.db);
  const m = await getMember(deps.db, membershipId, parisDay(now.toISOString()), graceDays);
  if (!m) return unknown;
  const active = payment.status === 'succeeded' && isCounted(m.state);
  return { state: active ? 'active' : 'pending', number: m.number, endsOn: active ? m.endsOn : null, emailed: !unconfirmed && Boolean(m.email), paymentId: payment.id };
}
