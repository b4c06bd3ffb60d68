import { Form, Link } from 'react-router';
import type { Route } from './+types/batch';
import { depositBatch, getBatch, reconcileBatch } from '~/domain/offline-gifts/batches.server';
import { depositSchema, reconcileSchema } from '~/domain/offline-gifts/forms';
import { offlineGiftLines } from '~/domain/offline-gifts/gifts.server';
import { BATCH_STATUS_LABELS, batchTotals, countLabel, isOpen } from '~/domain/offline-gifts/totals';
import { formatMoney } from '~/lib/currency';
import { fixFieldsToast, formError, issueErrors } from '~/lib/form-errors.server';
import { dayFr } from '~/lib/paris';
import { actorOf } from '~/routes/admin/auth.server';
import { Field, Notice, secondaryButton } from '~/ui/admin/Field';
import { useToast } from '~/ui/admin/hooks';
import { DonorSearch, GiftEntryForm, GiftLines, lineView } from '~/ui/admin/offline-gifts';
import { db, entryState, formOf, giftsAdmin, giftsUser, notFound, recordGift, recordedNotice, today, voidGift, formDone, type FormAnswer } from './admin.server';

/** One deposit of cheques: typed one after the other with the keyboard, its running count and total, its slip, deposit and reconciliation (ADR 028). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { admin } = await giftsUser(request, context);
  const batch = await getBatch(db(), params.batchId);
  if (!batch) notFound();
  const url = new URL(request.url);
  const lines = await offlineGiftLines(db(), batch.id);
  const totals = batchTotals(lines);
  return {
    admin,
    batch: { id: batch.id, number: batch.number, open: isOpen(batch.status), status: batch.status, statusLabel: BATCH_STATUS_LABELS[batch.status], openedOn: dayFr(batch.opened_on), depositedOn: batch.deposited_on && dayFr(batch.deposited_on), reconciledOn: batch.reconciled_on && dayFr(batch.reconciled_on) },
    totals: { count: countLabel(totals.count), total: formatMoney(totals.totalCents, 'EUR') },
    notice: recordedNotice(url, lines),
    entry: isOpen(batch.status) ? await entryState(url) : null,
    lines: lines.map((l) => lineView(l, admin)),
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const form = await formOf(request);
  const path = `/admin/cheques/remises/${params.batchId}`;
  if (form.intent === 'gift') {
    const { user } = await giftsUser(request, context);
    return recordGift(request, user, form, 'cheque', params.batchId, path);
  }
  const me = await giftsAdmin(request, context);
  if (form.intent === 'void') return voidGift(request, me, form);
  const schema = form.intent === 'deposit' ? depositSchema(today()) : reconcileSchema(today());
  const parsed = schema.safeParse(form);
  const title = form.intent === 'deposit' ? 'Remise non déposée' : 'Remise non rapprochée';
  if (!parsed.success) return formError<FormAnswer>({ errors: issueErrors(parsed.error.issues), values: form, toast: fixFieldsToast(title) });
  const v = parsed.data;
  const moved = 'credited' in v ? await reconcileBatch(db(), actorOf(me), params.batchId, v.credited, v.reconciled_on) : await depositBatch(db(), actorOf(me), params.batchId, v.deposited_on);
  if (!moved.ok) return formError<FormAnswer>({ errors: {}, values: form, toast: { title, description: moved.message, variant: 'destructive' } });
  return formDone('credited' in v ? 'Remise rapprochée' : 'Remise déposée', 'credited' in v ? 'Le montant crédité correspond au total de la remise.' : 'Aucun chèque ne peut plus y être ajouté.');
}

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `Remise n° ${loaderData?.batch.number ?? ''} | Chèques et virements | Administration` }, { name: 'robots', content: 'noindex' }];

export default function BatchScreen({ loaderData, actionData }: Route.ComponentProps) {
  const { admin, batch, totals, notice, entry, lines } = loaderData;
  const errors = actionData?.errors ?? {};
  const path = `/admin/cheques/remises/${batch.id}`;
  useToast(actionData?.toast);
  return (
    <div className="max-w-4xl space-y-6">
      <p><Link to="/admin/cheques" className="underline">← Chèques et virements</Link></p>
      <h1 className="text-3xl font-bold text-gray-900">Remise de chèques n° {batch.number}</h1>
      <p className="text-gray-700">
        {batch.statusLabel} — ouverte le {batch.openedOn}
        {batch.depositedOn && `, déposée le ${batch.depositedOn}`}
        {batch.reconciledOn && `, rapprochée le ${batch.reconciledOn}`}
      </p>
      <p role="status" className="rounded-md bg-brand-50 p-3 text-lg font-semibold text-gray-900" data-testid="batch-totals">
        {totals.count} — {totals.total}
      </p>
      {notice && <Notice tone="success" title={notice} />}
      {actionData?.toast && <Notice tone={actionData.toast.variant === 'destructive' ? 'error' : 'success'} title={actionData.toast.title}>{actionData.toast.description}</Notice>}
      {entry && (
        <>
          <DonorSearch entry={entry} path={path} />
          <GiftEntryForm entry={entry} means="cheque" errors={errors} values={actionData?.values} submitLabel="Enregistrer le chèque" />
        </>
      )}
      <section className="space-y-3">
        <h2 className="text-xl font-bold text-gray-900">Chèques de la remise</h2>
        {lines.length === 0 ? <p className="text-gray-700">Aucun chèque saisi.</p> : <GiftLines caption={`Chèques de la remise n° ${batch.number}`} lines={lines} errors={errors} cheques />}
        <p><a href={`${path}/bordereau.pdf`} className="underline" download>Bordereau de remise (PDF)</a></p>
      </section>
      {admin && batch.status !== 'reconciled' && (
        <section className="space-y-3 rounded-lg border border-gray-200 bg-white p-4">
          {batch.open ? (
            <Form method="post" className="space-y-3" noValidate>
              <h2 className="text-lg font-bold text-gray-900">Déposer la remise à la banque</h2>
              <input type="hidden" name="intent" value="deposit" />
              <Field name="deposited_on" label="Déposée le *" type="date" defaultValue={actionData?.values?.deposited_on ?? entry?.today} error={errors.deposited_on} required />
              <button type="submit" className={secondaryButton}>Marquer comme déposée</button>
            </Form>
          ) : (
            <Form method="post" className="space-y-3" noValidate>
              <h2 className="text-lg font-bold text-gray-900">Rapprocher avec le relevé bancaire</h2>
              <input type="hidden" name="intent" value="reconcile" />
              <Field name="credited" label="Montant crédité par la banque (€) *" inputMode="decimal" defaultValue={actionData?.values?.credited} error={errors.credited} required />
              <Field name="reconciled_on" label="Date du relevé *" type="date" defaultValue={actionData?.values?.reconciled_on} error={errors.reconciled_on} required />
              <button type="submit" className={secondaryButton}>Marquer comme rapprochée</button>
            </Form>
          )}
        </section>
      )}
    </div>
  );
}
