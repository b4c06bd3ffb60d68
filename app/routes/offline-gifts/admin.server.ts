/**
 * What the screens of gifts received by post or at the bank share (ADR 028): who may act, the
 * entry form's answer (record one gift), taking one back, and how a gift line is shown.
 */
import { receiptOffer } from '~/domain/receipts/settings.server';
import { randomUUID } from 'node:crypto';
import { data, redirect, type RouterContextProvider } from 'react-router';
import { donationDeps } from '~/domain/donations/deps.server';
import { listOpenCampaigns } from '~/domain/campaigns/campaigns.server';
import { donorOfGift, findDonors, type KnownDonor } from '~/domain/offline-gifts/donors.server';
import { giftEntrySchema, voidGiftSchema } from '~/domain/offline-gifts/forms';
import { BatchClosed, recordOfflineGift, voidOfflineGift, type OfflineGiftLine } from '~/domain/offline-gifts/gifts.server';
import type { SessionUser } from '~/domain/users/sessions.server';
import { formatMoney } from '~/lib/currency';
import { fixFieldsToast, formError, issueErrors, type FieldErrors } from '~/lib/form-errors.server';
import { parisDay } from '~/lib/paris';
import { runtime } from '~/lib/runtime.server';
import { actorOf, requireUser } from '~/routes/admin/auth.server';

type Ctx = Readonly<RouterContextProvider>;

/** The signed-in user allowed here (an Admin, or an Éditeur when the setting allows it: the gate reads it), and whether an Admin. */
export async function giftsUser(request: Request, context: Ctx) {
  const user = await requireUser(request, context, { area: 'offline-gifts' });
  return { user, admin: user.role === 'Admin' };
}

/** Taking back, depositing, reconciling and the setting are an Admin's. */
export async function giftsAdmin(request: Request, context: Ctx) {
  return requireUser(request, context, { area: 'offline-gifts', role: 'Admin' });
}

export const today = () => parisDay(new Date());
export const db = () => runtime().db;

export function notFound(): never {
  throw new Response('Introuvable', { status: 404 });
}

export type FormAnswer = { errors: FieldErrors; values?: Record<string, string>; toast?: { title: string; description?: string; variant: 'success' | 'destructive' } };

/** A form's success, as every action of these screens answers it. */
export const formDone = (title: string, description?: string): FormAnswer => ({ errors: {}, toast: { title, description, variant: 'success' } });

/** The entry form's state: a fresh one-time token, today, the open campaigns, the donor searched or chosen. */
export async function entryState(url: URL) {
  const q = url.searchParams.get('q')?.trim().slice(0, 100) ?? '';
  const chosen = url.searchParams.get('donneur');
  const donor: KnownDonor | undefined = chosen ? await donorOfGift(db(), chosen) : undefined;
  const campaigns = await listOpenCampaigns(db(), 'fr');
  return {
    token: randomUUID(),
    today: today(),
    q,
    found: q ? await findDonors(db(), q) : null,
    donor: donor ?? null,
    campaigns: campaigns.map((c) => ({ slug: c.slug, title: c.title })),
    ifi: (await receiptOffer(db())).ifi,
  };
}

/**
 * Records one gift from the entry form: a French error per field and nothing written, or a
 * redirect to `back` saying which gift was recorded (the form comes back empty for the next).
 */
export async function recordGift(request: Request, user: SessionUser, form: Record<string, string>, kind: 'cheque' | 'single', batchId: string | null, back: string) {
  const parsed = giftEntrySchema(today(), kind).safeParse(form);
  const title = kind === 'cheque' ? 'Chèque non enregistré' : 'Don non enregistré';
  if (!parsed.success) return formError<FormAnswer>({ errors: issueErrors(parsed.error.issues), values: form, toast: fixFieldsToast(title) });
  try {
    const r = await recordOfflineGift(await donationDeps(request), actorOf(user), parsed.data, batchId);
    if (r.status === 'invalid') return formError<FormAnswer>({ errors: r.errors, values: form, toast: fixFieldsToast(title) });
    throw redirect(`${back}?ok=${r.status === 'recorded' ? r.payment.id : 'deja'}`);
  } catch (e) {
    if (!(e instanceof BatchClosed)) throw e;
    return data<FormAnswer>({ errors: {}, values: form, toast: { title, description: 'Cette remise a été déposée entre-temps : ouvrez une nouvelle remise.', variant: 'destructive' } }, { status: 409 });
  }
}

/** Takes back one gift recorded by hand, with its reason (an Admin's act). */
export async function voidGift(request: Request, user: SessionUser, form: Record<string, string>) {
  const parsed = voidGiftSchema.safeParse(form);
  if (!parsed.success) {
    const errors = issueErrors(parsed.error.issues, () => `void:${form.payment_id}`);
    return formError<FormAnswer>({ errors, toast: { title: 'Saisie non annulée', description: 'Indiquez le motif de l’annulation.', variant: 'destructive' } });
  }
  const done = await voidOfflineGift(await donationDeps(request), actorOf(user), parsed.data.payment_id, parsed.data.reason);
  if (!done) return data<FormAnswer>({ errors: {}, toast: { title: 'Saisie non annulée', description: 'Ce don n’est pas une saisie en cours (déjà annulée, ou reçue en ligne).', variant: 'destructive' } }, { status: 409 });
  return formDone('Saisie annulée', 'Le don et son reçu fiscal sont annulés ; le motif est consigné au journal.');
}

/** The notice after a redirect (?ok=…): the gift just recorded, or the same form sent twice. */
export function recordedNotice(url: URL, lines: readonly OfflineGiftLine[]): string | null {
  const ok = url.searchParams.get('ok');
  if (!ok) return null;
  if (ok === 'deja') return 'Ce formulaire avait déjà été envoyé : un seul don est enregistré.';
  const l = lines.find((x) => x.paymentId === ok);
  if (!l) return null;
  return `Enregistré : ${formatMoney(l.amountCents, 'EUR')} — ${l.donorName}${l.receiptNumber ? ` (reçu ${l.receiptNumber})` : ' (sans reçu fiscal)'}.`;
}


export const formOf = async (request: Request) => Object.fromEntries([...(await request.formData()).entries()].map(([k, v]) => [k, typeof v === 'string' ? v : '']));
