import { Form, Link, data, redirect } from 'react-router';
import type { Route } from './+types/admin-receipt';
import { FIELD_LABEL, fieldName, readTaxDetails, TAX_FIELDS, type TaxDetails } from '~/domain/receipts/donor-details';
import { cancelReceipt, getReceipt } from '~/domain/receipts/register.server';
import { correctReceipt } from '~/domain/donations/ledger.server';
import { euroFigures } from '~/domain/receipts/words';
import { actorOf, requireUser } from '~/routes/admin/auth.server';
import { messagesFor } from '~/lib/i18n.server';
import { translate } from '~/lib/i18n';
import { runtime } from '~/lib/runtime.server';
import { Field, Notice, dangerButton, inputClass, primaryButton } from '~/ui/admin/Field';
import { dateFr, notFound } from './admin-receipts.server';
import { receiptOffer } from '~/domain/receipts/settings.server';
import { REGIME_LABELS, storedRegime } from '~/domain/receipts/regimes';
import type { Receipt } from '~/domain/receipts/register.server';
import type { DB } from '~db/index';

/** A correction may keep or set the IFI option when the foundation is eligible, or when the receipt was an IFI one already (ADR 035). */
const ifiAllowed = async (db: DB, r: Receipt | undefined) => (await receiptOffer(db)).ifi || storedRegime(r?.regime) === '978';

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'receipts' });
  const r = await getReceipt(runtime().db, params.receiptId);
  if (!r) notFound();
  const replaces = r.replaces_id ? await getReceipt(runtime().db, r.replaces_id) : undefined;
  const replacedBy = await runtime().db.selectFrom('receipts').select(['id', 'number']).where('replaces_id', '=', r.id).executeTakeFirst();
  return {
    receipt: { id: r.id, number: r.number, kind: r.kind, status: r.status, issuedAt: dateFr(r.issued_at), paidAt: dateFr(r.paid_at), amount: euroFigures(r.amount_cents), method: r.method, email: r.donor_email, reason: r.cancel_reason, cancelledAt: r.cancelled_at ? dateFr(r.cancelled_at) : null },
    donor: JSON.parse(r.donor) as TaxDetails,
    regime: REGIME_LABELS[storedRegime(r.regime)],
    ifi: await ifiAllowed(runtime().db, r),
    replaces: replaces ? { id: replaces.id, number: replaces.number } : null,
    replacedBy: replacedBy ?? null,
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const me = await requireUser(request, context, { area: 'receipts' });
  const form = await request.formData();
  const reason = String(form.get('reason') ?? '').trim().slice(0, 300);
  const db = runtime().db;
  if (form.get('intent') === 'cancel') {
    const r = await cancelReceipt(db, actorOf(me), params.receiptId, reason);
    if (!r.ok) return data({ errors: { form: r.error } as Record<string, string> }, { status: 409 });
    return redirect(`/admin/receipts/${params.receiptId}`, 303);
  }
  if (form.get('intent') === 'correct') {
    const read = readTaxDetails((k) => String(form.get(k) ?? ''), { ifi: await ifiAllowed(db, await getReceipt(db, params.receiptId)) });
    const fr = messagesFor('fr');
    if (!read.ok) return data({ errors: Object.fromEntries(read.errors.map((e) => [e.field, translate(fr, e.key, { field: translate(fr, FIELD_LABEL[e.field]) })])) as Record<string, string> }, { status: 400 });
    if (!read.details) return data({ errors: { form: 'Un reçu corrigé a besoin des informations du donateur.' } as Record<string, string> }, { status: 400 });
    const r = await correctReceipt(db, actorOf(me), params.receiptId, read.details, reason);
    if (!r.ok) return data({ errors: { form: r.error } as Record<string, string> }, { status: 409 });
    return redirect(`/admin/receipts/${r.receipt.id}`, 303);
  }
  return data({ errors: { form: 'Action inconnue.' } as Record<string, string> }, { status: 400 });
}

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `Reçu ${loaderData?.receipt.number ?? ''} | Administration` }, { name: 'robots', content: 'noindex' }];

const LABELS: Record<(typeof TAX_FIELDS)[number], string> = { kind: 'Type', name: 'Nom et prénom', company: 'Raison sociale', legalForm: 'Forme juridique', siren: 'SIREN', address: 'Adresse', postalCode: 'Code postal', city: 'Commune', country: 'Pays' };

export default function ReceiptScreen({ loaderData, actionData }: Route.ComponentProps) {
  const { receipt: r, donor, regime, ifi, replaces, replacedBy } = loaderData;
  const errors = actionData?.errors ?? {};
  return (
    <div className="max-w-3xl space-y-6">
      <p><Link to="/admin/receipts" className="underline">← Tous les reçus</Link></p>
      <h1 className="text-3xl font-bold text-gray-900">Reçu {r.number}</h1>
      {r.status === 'cancelled' && (
        <Notice tone="info" title={`Annulé le ${r.cancelledAt}`}>
          {r.reason}
          {replacedBy && <> — remplacé par <Link to={`/admin/receipts/${replacedBy.id}`} className="underline">{replacedBy.number}</Link></>}
        </Notice>
      )}
      {errors.form && <Notice tone="error">{errors.form}</Notice>}
      <dl className="grid gap-x-6 gap-y-2 rounded-lg border border-gray-200 bg-white p-6 wrap-anywhere sm:grid-cols-[12rem_1fr]">
        <dt className="font-medium text-gray-900">Type</dt><dd>{r.kind === 'annual' ? 'Reçu annuel récapitulatif' : 'Reçu d’un don'}</dd>
        <dt className="font-medium text-gray-900">Émis le</dt><dd>{r.issuedAt}</dd>
        <dt className="font-medium text-gray-900">Versement</dt><dd>{r.paidAt} · {r.method}</dd>
        <dt className="font-medium text-gray-900">Montant</dt><dd>{r.amount}</dd>
        <dt className="font-medium text-gray-900">Régime</dt><dd>{regime}</dd>
        <dt className="font-medium text-gray-900">Donateur</dt><dd>{donor.kind === 'company' ? `${donor.company}${donor.legalForm ? `, ${donor.legalForm}` : ''} (SIREN ${donor.siren}), ${donor.name}` : donor.name}<br />{donor.address}, {donor.postalCode} {donor.city}, {donor.country}</dd>
        <dt className="font-medium text-gray-900">Email</dt><dd>{r.email ?? '—'}</dd>
        {replaces && (<><dt className="font-medium text-gray-900">Remplace</dt><dd><Link to={`/admin/receipts/${replaces.id}`} className="underline">{replaces.number}</Link></dd></>)}
      </dl>
      <p><a href={`/admin/receipts/${r.id}/pdf`} className="underline" download>Télécharger le PDF du reçu {r.number}</a></p>
      {r.status === 'issued' && (
        <>
          <Form method="post" className="space-y-4 rounded-lg border border-gray-200 bg-white p-6" noValidate>
            <h2 className="text-xl font-bold text-gray-900">Corriger (annule ce reçu et en émet un nouveau, avec un nouveau numéro)</h2>
            <input type="hidden" name="intent" value="correct" />
            <fieldset>
              <legend className="text-sm font-medium text-gray-900">Le donateur est</legend>
              <label className="mr-6 inline-flex min-h-11 items-center gap-2"><input type="radio" name={fieldName('kind')} value="individual" defaultChecked={donor.kind !== 'company'} className="h-4 w-4" /> Particulier</label>
              <label className="inline-flex min-h-11 items-center gap-2"><input type="radio" name={fieldName('kind')} value="company" defaultChecked={donor.kind === 'company'} className="h-4 w-4" /> Entreprise</label>
            </fieldset>
            {ifi && (
              <label className="inline-flex min-h-11 items-center gap-2"><input type="checkbox" name={fieldName('ifi')} defaultChecked={donor.ifi === true} className="h-4 w-4" /> Don au titre de l’IFI (particulier, article 978 du CGI)</label>
            )}
            <div className="grid gap-4 sm:grid-cols-2">
              {TAX_FIELDS.filter((f) => f !== 'kind').map((f) => (
                <Field key={f} id={`fix-${f}`} name={fieldName(f)} label={LABELS[f]} defaultValue={donor[f]} error={errors[f]} maxLength={200} />
              ))}
            </div>
            <div>
              <label htmlFor="fix-reason" className="block text-sm font-medium text-gray-900">Motif</label>
              <input id="fix-reason" name="reason" maxLength={300} defaultValue="Informations corrigées" className={inputClass(false)} />
            </div>
            <button type="submit" className={primaryButton}>Annuler et émettre le reçu corrigé</button>
          </Form>
          <Form method="post" className="space-y-4 rounded-lg border border-red-200 bg-white p-6">
            <h2 className="text-xl font-bold text-gray-900">Annuler ce reçu</h2>
            <input type="hidden" name="intent" value="cancel" />
            <div>
              <label htmlFor="cancel-reason" className="block text-sm font-medium text-gray-900">Motif de l’annulation</label>
              <input id="cancel-reason" name="reason" required maxLength={300} className={inputClass(false)} />
            </div>
            <button type="submit" className={dangerButton}>Annuler le reçu</button>
          </Form>
        </>
      )}
    </div>
  );
}
