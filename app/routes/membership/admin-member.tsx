import { randomUUID } from 'node:crypto';
import { Form, Link, data } from 'react-router';
import type { Route } from './+types/admin-member';
import { formatMoney } from '~/lib/currency';
import { shortMeansLabel } from '~/domain/means/means';
import { MANUAL_MEANS, manualDuesSchema, overrideSchema, voidDuesSchema } from '~/domain/membership/forms';
import { DuesNotPayableError, recordManualDues, voidManualDues } from '~/domain/membership/payments.server';
import { donationDeps } from '~/domain/donations/deps.server';
import { mailMemberCard } from '~/domain/membership/card.server';
import { duesHistory, getMember, setOverride } from '~/domain/membership/register.server';
import { OVERRIDE_STATES, STATE_LABELS, isCounted } from '~/domain/membership/status';
import { actorOf, requireUser } from '~/routes/admin/auth.server';
import { runtime } from '~/lib/runtime.server';
import { fixFieldsToast, formError, issueErrors } from '~/lib/form-errors.server';
import { AdminTable } from '~/ui/admin/AdminTable';
import { Field, Notice, SelectField, inputClass, primaryButton, secondaryButton } from '~/ui/admin/Field';
import { MembershipTabs, StateBadge } from '~/ui/admin/membership';
import { useToast } from '~/ui/admin/hooks';
import { VoidEntry } from '~/ui/admin/VoidEntry';
import { memberView, membershipContext, notFound } from './admin.server';
import { dayFr } from './format';

const DUES_STATUS: Record<string, string> = { paid: 'Payée', refunded: 'Remboursée', cancelled: 'Annulée' };

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUser(request, context, { area: 'memberships' });
  const { db, day, settings, typeName, types } = await membershipContext();
  const member = await getMember(db, params.memberId, day, settings.graceDays);
  if (!member) notFound();
  const dues = await duesHistory(db, member.id);
  const type = types.find((t) => t.id === member.typeId);
  const payable = Boolean(type && type.duesCents > 0 && !member.exempt);
  return {
    admin: user.role === 'Admin',
    // A one-time token per display of the form: submitted twice, it records one payment.
    manual: user.role === 'Admin' && payable ? { token: randomUUID(), amount: (type!.duesCents / 100).toFixed(2).replace('.', ','), today: day } : null,
    member: memberView(member, user, typeName),
    dues: dues.map((d) => ({
      id: d.id,
      paidOn: dayFr(d.paidAt.slice(0, 10)),
      amount: formatMoney(d.amountCents, 'EUR'),
      method: shortMeansLabel(d.method),
      period: d.period ? `${dayFr(d.period.start)} → ${dayFr(d.period.end)}` : '—',
      status: DUES_STATUS[d.status] ?? d.status,
      source: d.recordedBy ? `Saisie par ${d.recordedBy}` : d.paymentId ? `Paiement ${d.paymentId}` : 'Saisie',
      // An Admin may take back what was recorded by hand and still counts (issue 32: correcting a manual entry).
      voidable: user.role === 'Admin' && Boolean(d.recordedBy && d.paymentId) && d.status === 'paid' ? d.paymentId : null,
    })),
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const me = await requireUser(request, context, { area: 'memberships', role: 'Admin' });
  const form = Object.fromEntries([...(await request.formData()).entries()].map(([k, v]) => [k, typeof v === 'string' ? v : '']));
  if (form.intent === 'dues') return recordDues(request, me, params.memberId, form);
  if (form.intent === 'void-dues') return voidDues(request, me, params.memberId, form);
  const parsed = overrideSchema.safeParse(form);
  if (!parsed.success) {
    return formError({ errors: issueErrors(parsed.error.issues), toast: fixFieldsToast('État non modifié') });
  }
  const override = parsed.data.intent === 'override' ? { state: parsed.data.state, reason: parsed.data.reason } : null;
  const { db, day, settings } = await membershipContext();
  const before = await getMember(db, params.memberId, day, settings.graceDays);
  if (!before || !(await setOverride(db, actorOf(me), params.memberId, override))) notFound();
  // An Admin's validation (active or honorary) of a member not counted until now activates the
  // membership: the member card is mailed, as on a verified payment (ADR 021).
  const activated = override !== null && isCounted(override.state) && !isCounted(before.state);
  const { env, publicUrl, storage, secret } = runtime();
  const card = activated ? await mailMemberCard({ db, env, publicUrl, storage, secret }, params.memberId) : null;
  const cardNote = card === null ? undefined : card.status === 'skipped' ? 'Pas d’adresse e-mail : la carte de membre n’a pas été envoyée.' : card.status === 'failed' ? 'La carte de membre n’a pas pu être envoyée.' : 'La carte de membre a été envoyée au membre.';
  return { errors: {} as Record<string, string>, toast: { title: override ? 'État forcé enregistré' : 'État recalculé d’après les cotisations', description: cardNote, variant: 'success' as const } };
}

/** Dues received by hand (cash, cheque, transfer): through the ledger, once per form (issue 32 item 5, ADR 021). */
async function recordDues(request: Request, me: Parameters<typeof actorOf>[0], memberId: string, form: Record<string, string>) {
  const { day } = await membershipContext();
  const parsed = manualDuesSchema(day).safeParse(form);
  if (!parsed.success) {
    return formError({ errors: issueErrors(parsed.error.issues), toast: fixFieldsToast('Cotisation non enregistrée') });
  }
  const v = parsed.data;
  try {
    const r = await recordManualDues(await donationDeps(request), actorOf(me), { membershipId: memberId, token: v.token, means: v.means, amountCents: v.amount, receivedOn: v.received_on, reference: v.reference, note: v.note });
    const title = r.recorded ? 'Cotisation enregistrée' : 'Cette cotisation était déjà enregistrée';
    return { errors: {} as Record<string, string>, toast: { title, description: r.recorded ? 'La période et l’état du membre sont à jour.' : 'Le formulaire a été envoyé deux fois : un seul paiement est enregistré.', variant: 'success' as const } };
  } catch (e) {
    if (!(e instanceof DuesNotPayableError)) throw e;
    return data({ errors: {} as Record<string, string>, toast: { title: 'Cotisation non enregistrée', description: 'Ce membre n’a pas de cotisation à payer (type sans cotisation ou membre exonéré).', variant: 'destructive' as const } }, { status: 400 });
  }
}

/** Dues recorded by hand and recorded wrong (a mistyped amount, a bounced cheque): cancelled with a reason, through the ledger. */
async function voidDues(request: Request, me: Parameters<typeof actorOf>[0], memberId: string, form: Record<string, string>) {
  const parsed = voidDuesSchema.safeParse(form);
  if (!parsed.success) {
    // Keyed by the payment: the message goes beside the reason field of the row that was sent.
    const errors = issueErrors(parsed.error.issues, () => `void:${form.payment_id}`);
    return formError({ errors, toast: { title: 'Saisie non annulée', description: 'Indiquez le motif de l’annulation.', variant: 'destructive' as const } });
  }
  const done = await voidManualDues(await donationDeps(request), actorOf(me), memberId, parsed.data.payment_id, parsed.data.reason);
  if (!done) return data({ errors: {} as Record<string, string>, toast: { title: 'Saisie non annulée', description: 'Ce paiement n’est pas une saisie en cours de ce membre (déjà annulé, ou reçu en ligne).', variant: 'destructive' as const } }, { status: 409 });
  return { errors: {} as Record<string, string>, toast: { title: 'Saisie annulée', description: 'Le paiement et son reçu sont annulés ; la période et l’état du membre sont recalculés.', variant: 'success' as const } };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `${loaderData?.member.name ?? 'Membre'} | Adhésions | Administration` }, { name: 'robots', content: 'noindex' }];

export default function MemberScreen({ loaderData, actionData }: Route.ComponentProps) {
  const { admin, member: m, dues, manual } = loaderData;
  const errors = actionData?.errors ?? {};
  useToast(actionData?.toast);
  return (
    <div className="max-w-4xl space-y-6">
      <p><Link to="/admin/adhesions" className="underline">← Registre des membres</Link></p>
      <h1 className="text-3xl font-bold text-gray-900 wrap-anywhere">{m.name}</h1>
      <MembershipTabs admin={admin} />
      {actionData?.toast && <Notice tone={actionData.toast.variant === 'destructive' ? 'error' : 'success'} title={actionData.toast.title}>{'description' in actionData.toast ? actionData.toast.description : undefined}</Notice>}
      <dl className="grid gap-4 rounded-lg border border-gray-200 bg-white p-6 wrap-anywhere sm:grid-cols-2">
        <div><dt className="text-sm text-gray-700">Numéro de membre</dt><dd className="font-mono text-lg" data-testid="member-number">{m.number}</dd></div>
        <div><dt className="text-sm text-gray-700">Type</dt><dd>{m.type}</dd></div>
        <div><dt className="text-sm text-gray-700">État</dt><dd><StateBadge state={m.state} label={m.stateLabel} /></dd></div>
        <div><dt className="text-sm text-gray-700">Fin de la période payée</dt><dd>{m.endsOn}</dd></div>
        <div><dt className="text-sm text-gray-700">Langue des courriels</dt><dd>{m.language}</dd></div>
        {m.contact && (
          <>
            <div><dt className="text-sm text-gray-700">E-mail</dt><dd className="break-all">{m.contact.email || '—'}</dd></div>
            <div><dt className="text-sm text-gray-700">Téléphone</dt><dd>{m.contact.phone || '—'}</dd></div>
            <div className="sm:col-span-2"><dt className="text-sm text-gray-700">Adresse postale</dt><dd>{m.contact.address || '—'}</dd></div>
          </>
        )}
      </dl>
      <section className="space-y-3 rounded-lg border border-gray-200 bg-white p-6" aria-labelledby="member-card">
        <h2 id="member-card" className="text-xl font-bold text-gray-900">Carte de membre</h2>
        <p className="text-gray-700">Au format carte (85,6 × 54 mm), dans la langue du membre, avec le code QR de sa page de vérification.</p>
        <p className="flex flex-wrap gap-3">
          <a href={`/admin/adhesions/${encodeURIComponent(m.id)}/carte.pdf`} download className={secondaryButton}>Télécharger la carte (PDF)</a>
          <a href={`/admin/adhesions/${encodeURIComponent(m.id)}/carte.pdf?format=a4`} download className={secondaryButton}>Planche A4 à imprimer et découper (PDF)</a>
        </p>
      </section>
      {m.override && (
        <Notice tone="info" title={`État forcé : ${m.override.label}`}>
          <span className="wrap-anywhere">
          {m.override.reason} — par {m.override.by}, le {dayFr(m.override.at.slice(0, 10))}
          </span>
        </Notice>
      )}
      <section className="space-y-3">
        <h2 className="text-xl font-bold text-gray-900">Historique des cotisations</h2>
        {dues.length === 0 ? (
          <p className="text-gray-700">Aucune cotisation enregistrée.</p>
        ) : (
          <AdminTable caption="Historique des cotisations" columns={['Payée le', 'Montant', 'Moyen', 'Période couverte', 'Statut', 'Origine']}>
            {dues.map((d) => (
              <tr key={d.id}>
                <td className="px-4 py-3 whitespace-nowrap">{d.paidOn}</td>
                <td className="px-4 py-3 whitespace-nowrap">{d.amount}</td>
                <td className="px-4 py-3">{d.method}</td>
                <td className="px-4 py-3 whitespace-nowrap">{d.period}</td>
                <td className="px-4 py-3">{d.status}</td>
                <td className="px-4 py-3 text-sm text-gray-700 break-all">{d.source}</td>
                <td className="px-4 py-3">{d.voidable && <VoidEntry intent="void-dues" paymentId={d.voidable} label={`Motif de l’annulation (cotisation du ${d.paidOn}) *`} button="Annuler ce paiement et son reçu" error={errors[`void:${d.voidable}`]} />}</td>
              </tr>
            ))}
          </AdminTable>
        )}
      </section>
      {manual && (
        <section className="space-y-4 rounded-lg border border-gray-200 bg-white p-6" aria-labelledby="manual-dues">
          <h2 id="manual-dues" className="text-xl font-bold text-gray-900">Enregistrer une cotisation reçue</h2>
          <p className="text-gray-700">Espèces, chèque ou virement reçus : le paiement entre au registre des paiements à votre nom, prolonge l’adhésion et, si le type ouvre un reçu fiscal, reçoit son numéro.</p>
          <Form method="post" className="space-y-4" noValidate key={manual.token}>
            <input type="hidden" name="intent" value="dues" />
            <input type="hidden" name="token" value={manual.token} />
            {errors.token && <Notice tone="error" title={errors.token} />}
            <SelectField name="means" label="Moyen de paiement *" options={[...MANUAL_MEANS]} labels={Object.fromEntries(MANUAL_MEANS.map((m) => [m, shortMeansLabel(m)]))} defaultValue="cheque" error={errors.means} />
            <Field name="amount" label="Montant en euros *" defaultValue={manual.amount} inputMode="decimal" error={errors.amount} required />
            <Field name="received_on" label="Reçue le *" type="date" defaultValue={manual.today} max={manual.today} error={errors.received_on} required />
            <Field name="reference" label="Référence (numéro de chèque, libellé du virement)" maxLength={60} error={errors.reference} />
            <Field name="note" label="Note" maxLength={300} error={errors.note} />
            <button type="submit" className={primaryButton}>Enregistrer la cotisation</button>
          </Form>
        </section>
      )}
      {admin && (
        <section className="space-y-4 rounded-lg border border-gray-200 bg-white p-6">
          <h2 className="text-xl font-bold text-gray-900">Forcer l’état</h2>
          <p className="text-gray-700">L’état se calcule d’après les dates et les cotisations. Un état forcé le remplace jusqu’à ce qu’il soit levé ; il est consigné dans le journal avec son motif.</p>
          <Form method="post" className="space-y-4" noValidate>
            <input type="hidden" name="intent" value="override" />
            <div>
              <label htmlFor="state" className="block text-sm font-medium text-gray-900">État</label>
              <select id="state" name="state" className={inputClass(Boolean(errors.state))} aria-invalid={errors.state ? true : undefined}>
                {OVERRIDE_STATES.map((s) => <option key={s} value={s}>{STATE_LABELS[s]}</option>)}
              </select>
            </div>
            <Field name="reason" label="Motif *" error={errors.reason} maxLength={300} required />
            <button type="submit" className={primaryButton}>Forcer l’état</button>
          </Form>
          {m.override && (
            <Form method="post">
              <input type="hidden" name="intent" value="clear-override" />
              <button type="submit" className={secondaryButton}>Revenir à l’état calculé</button>
            </Form>
          )}
        </section>
      )}
    </div>
  );
}
