import { Form, Link, redirect } from 'react-router';
import type { Route } from './+types/batches';
import { listBatches, openBatch } from '~/domain/offline-gifts/batches.server';
import { depositAccountSchema, editorsSchema, friendlyIban } from '~/domain/offline-gifts/forms';
import { getOfflineGiftSettings, setDepositAccount, setEditorsMayRecord } from '~/domain/offline-gifts/settings.server';
import { BATCH_STATUS_LABELS, countLabel } from '~/domain/offline-gifts/totals';
import { formatMoney } from '~/lib/currency';
import { formError, issueErrors } from '~/lib/form-errors.server';
import { dayFr } from '~/lib/paris';
import { actorOf } from '~/routes/admin/auth.server';
import { AdminTable } from '~/ui/admin/AdminTable';
import { Field, Notice, primaryButton, secondaryButton } from '~/ui/admin/Field';
import { useToast } from '~/ui/admin/hooks';
import { db, formOf, giftsAdmin, giftsUser, today } from './admin.server';

/** Gifts received by post or at the bank: the deposits of cheques, the one-by-one entry, the Éditeurs' permission (ADR 028). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { admin } = await giftsUser(request, context);
  const batches = await listBatches(db());
  return {
    admin,
    settings: admin ? await getOfflineGiftSettings(db()) : null,
    batches: batches.map((b) => ({ id: b.id, number: b.number, openedOn: dayFr(b.opened_on), status: BATCH_STATUS_LABELS[b.status], count: countLabel(b.count), total: formatMoney(b.totalCents, 'EUR') })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await formOf(request);
  if (form.intent === 'open') {
    const { user } = await giftsUser(request, context);
    const batch = await openBatch(db(), actorOf(user), today());
    throw redirect(`/admin/cheques/remises/${batch.id}`);
  }
  const me = await giftsAdmin(request, context);
  if (form.intent === 'account') {
    const account = depositAccountSchema.safeParse(form);
    if (!account.success) return formError({ accountErrors: issueErrors(account.error.issues), values: { holder: form.holder ?? '', iban: form.iban ?? '' } });
    await setDepositAccount(db(), actorOf(me), account.data);
    return { toast: { title: 'Compte enregistré', description: account.data ? 'Il est imprimé sur les bordereaux de remise.' : 'Les bordereaux ne portent plus de compte.', variant: 'success' as const } };
  }
  const parsed = editorsSchema.safeParse(form);
  if (!parsed.success) return formError({ toast: { title: 'Demande inconnue', description: 'Rechargez la page.', variant: 'destructive' as const } });
  await setEditorsMayRecord(db(), actorOf(me), parsed.data.editors);
  return { toast: { title: 'Paramètre enregistré', description: parsed.data.editors ? 'Les Éditeurs peuvent saisir les chèques et virements.' : 'Seuls les Admins saisissent les chèques et virements.', variant: 'success' as const } };
}

export const meta: Route.MetaFunction = () => [{ title: 'Chèques et virements | Administration' }, { name: 'robots', content: 'noindex' }];

export default function BatchesScreen({ loaderData, actionData }: Route.ComponentProps) {
  const { admin, batches, settings } = loaderData;
  const toast = actionData && 'toast' in actionData ? actionData.toast : undefined;
  const accountErrors = actionData && 'accountErrors' in actionData ? actionData.accountErrors : undefined;
  const typed = actionData && 'values' in actionData ? actionData.values : undefined;
  useToast(toast);
  return (
    <div className="max-w-4xl space-y-6">
      <h1 className="text-3xl font-bold text-gray-900">Chèques et virements</h1>
      <p className="text-gray-700">Les dons reçus par courrier ou à la banque entrent au registre des dons : chacun reçoit son reçu fiscal, compte dans les rapports et peut être annulé avec un motif.</p>
      {toast && <Notice tone={toast.variant === 'destructive' ? 'error' : 'success'} title={toast.title}>{toast.description}</Notice>}
      <div className="flex flex-wrap gap-3">
        <Form method="post">
          <input type="hidden" name="intent" value="open" />
          <button type="submit" className={primaryButton}>Nouvelle remise de chèques</button>
        </Form>
        <Link to="/admin/cheques/don" className={secondaryButton}>Saisir un virement ou des espèces</Link>
        <Link to="/admin/cheques/nature" className={secondaryButton}>Saisir un don en nature ou un abandon de frais</Link>
      </div>
      <section className="space-y-3">
        <h2 className="text-xl font-bold text-gray-900">Remises de chèques</h2>
        {batches.length === 0 ? (
          <p className="text-gray-700">Aucune remise pour l’instant.</p>
        ) : (
          <AdminTable caption="Remises de chèques" columns={['Remise', 'Ouverte le', 'Chèques', 'Total', 'État']}>
            {batches.map((b) => (
              <tr key={b.id}>
                <td className="px-4 py-3"><Link to={`/admin/cheques/remises/${b.id}`} className="underline">Remise n° {b.number}</Link></td>
                <td className="px-4 py-3 whitespace-nowrap">{b.openedOn}</td>
                <td className="px-4 py-3 whitespace-nowrap">{b.count}</td>
                <td className="px-4 py-3 whitespace-nowrap">{b.total}</td>
                <td className="px-4 py-3">{b.status}</td>
                <td className="px-4 py-3" />
              </tr>
            ))}
          </AdminTable>
        )}
      </section>
      {admin && (
        <section className="space-y-3 rounded-lg border border-gray-200 bg-white p-4">
          <h2 className="text-xl font-bold text-gray-900">Qui peut saisir ?</h2>
          <Form method="post" className="space-y-3">
            <input type="hidden" name="intent" value="editors" />
            <div className="flex items-center gap-2">
              <input id="editors" name="editors" type="checkbox" defaultChecked={settings?.editorsMayRecord === true} className="h-5 w-5" />
              <label htmlFor="editors">Les Éditeurs peuvent saisir les chèques, virements et espèces (annuler, déposer et rapprocher restent réservés aux Admins)</label>
            </div>
            <button type="submit" className={secondaryButton}>Enregistrer</button>
          </Form>
        </section>
      )}
      {admin && (
        <section className="space-y-3 rounded-lg border border-gray-200 bg-white p-4">
          <h2 className="text-xl font-bold text-gray-900">Compte de remise des chèques</h2>
          <p className="text-gray-700">Le compte sur lequel la banque crédite les remises, imprimé sur chaque bordereau. Laissez les deux champs vides pour le retirer.</p>
          {accountErrors && <Notice tone="error" title="Le compte n’a pas été enregistré">Corrigez les champs signalés.</Notice>}
          <Form method="post" className="space-y-3" noValidate>
            <input type="hidden" name="intent" value="account" />
            <Field label="Titulaire du compte" name="holder" defaultValue={typed?.holder ?? settings?.depositAccount?.holder ?? ''} error={accountErrors?.holder} maxLength={120} />
            <Field label="IBAN" name="iban" defaultValue={typed?.iban ?? (settings?.depositAccount ? friendlyIban(settings.depositAccount.iban) : '')} error={accountErrors?.iban} autoComplete="off" spellCheck={false} />
            <button type="submit" className={secondaryButton}>Enregistrer le compte</button>
          </Form>
        </section>
      )}
    </div>
  );
}
