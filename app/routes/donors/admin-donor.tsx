import { Form, Link, data } from 'react-router';
import type { Route } from './+types/admin-donor';
import { normalizeEmail } from '~/domain/donors/links.server';
import { eraseDonorData, exportDonorData } from '~/domain/donors/personal-data.server';
import { actorOf, requireUser } from '~/routes/admin/auth.server';
import { db } from '~/lib/runtime.server';
import { Notice, dangerButton, inputClass, primaryButton, secondaryButton } from '~/ui/admin/Field';

/**
 * /admin/donations/donateur: an Admin answers a donor who wrote in — what is kept under an email,
 * its export (JSON, CSV) and its erasure. Both are in the audit log.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'donations' });
  const url = new URL(request.url);
  const asked = url.searchParams.get('email') ?? '';
  const email = normalizeEmail(asked);
  const erased = url.searchParams.get('efface') === '1';
  if (!asked) return { asked, email: null, summary: null, erased };
  if (!email) return data({ asked, email: null, summary: null, erased }, { status: 400 });
  const x = await exportDonorData(db(), email);
  return {
    asked,
    email,
    erased,
    summary: { gifts: x.gifts.length, monthly: x.monthlyGifts.filter((g) => g.status !== 'ended').length, messages: x.messages.length, consents: x.consents.length },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const me = await requireUser(request, context, { area: 'donations' });
  const form = await request.formData();
  const email = normalizeEmail(form.get('email'));
  if (!email) return data({ error: 'Adresse email invalide.' }, { status: 400 });
  if (form.get('confirm') !== 'yes') return data({ error: 'Cochez la case pour confirmer l’effacement.' }, { status: 400 });
  const result = await eraseDonorData(db(), email, actorOf(me));
  if (!result.ok) return data({ error: 'Ce donateur a encore un don mensuel en cours : arrêtez-le d’abord (depuis son espace ou le tableau de bord du prestataire de paiement), sinon le prestataire nous renverrait son adresse.' }, { status: 409 });
  return { error: null, done: `Données effacées : ${result.donations} don(s) anonymisé(s), ${result.messages} message(s) supprimé(s).` };
}

export const meta: Route.MetaFunction = () => [{ title: 'Données d’un donateur | Administration' }, { name: 'robots', content: 'noindex' }];

export default function AdminDonor({ loaderData, actionData }: Route.ComponentProps) {
  const { asked, email, summary } = loaderData;
  const q = email ? `?email=${encodeURIComponent(email)}` : '';
  return (
    <div className="max-w-3xl space-y-6">
      <p><Link to="/admin/donations" className="underline">← Dons</Link></p>
      <h1 className="text-3xl font-bold text-gray-900">Données d’un donateur</h1>
      <p className="text-gray-700">Pour répondre à un donateur qui écrit : voir ce qui est conservé à son adresse email, le lui exporter, ou l’effacer. Les montants et dates des dons restent (comptabilité) ; les reçus fiscaux émis sont conservés comme la loi l’exige.</p>
      <Form method="get" className="flex flex-wrap items-end gap-3 rounded-lg border border-gray-200 bg-white p-4">
        <div className="grow">
          <label htmlFor="donor-email" className="block text-sm font-medium text-gray-900">Email du donateur</label>
          <input id="donor-email" name="email" type="email" required defaultValue={asked} className={inputClass(Boolean(asked && !email))} aria-describedby={asked && !email ? 'donor-email-error' : undefined} />
        </div>
        <button type="submit" className={primaryButton}>Rechercher</button>
      </Form>
      {asked && !email && <p id="donor-email-error" role="alert" className="text-red-800">Adresse email invalide.</p>}
      {actionData?.error && <Notice tone="error" title={actionData.error} />}
      {actionData && 'done' in actionData && actionData.done && <Notice tone="success" title={actionData.done} />}
      {email && summary && !(actionData && 'done' in actionData) && (
        <section aria-labelledby="summary-title" className="space-y-4 rounded-lg border border-gray-200 bg-white p-4">
          <h2 id="summary-title" className="text-xl font-semibold text-gray-900 wrap-anywhere">{email}</h2>
          <ul className="list-inside list-disc text-gray-800">
            <li>{summary.gifts} don(s)</li>
            <li>{summary.monthly} don(s) mensuel(s) en cours</li>
            <li>{summary.messages} message(s) du formulaire de contact</li>
            <li>{summary.consents} consentement(s)</li>
          </ul>
          <div className="flex flex-wrap gap-3">
            <a href={`/admin/donations/donateur/export/json${q}`} download className={secondaryButton}>Exporter (JSON)</a>
            <a href={`/admin/donations/donateur/export/csv${q}`} download className={secondaryButton}>Exporter (CSV)</a>
          </div>
          <Form method="post" className="space-y-3 border-t border-gray-200 pt-4">
            <input type="hidden" name="email" value={email} />
            <h3 className="font-semibold text-gray-900">Effacer ses données</h3>
            <p className="text-gray-700">Nom, email, adresse postale et dédicaces retirés de tous les dons (et des courriels et du journal qui les citent), messages et consentements supprimés ; les reçus fiscaux émis restent au registre, comme la loi l’exige. Définitif.</p>
            <label className="flex min-h-11 items-center gap-2 text-gray-900">
              <input type="checkbox" name="confirm" value="yes" className="h-4 w-4" /> Je confirme l’effacement définitif
            </label>
            <button type="submit" className={dangerButton}>Effacer les données</button>
          </Form>
        </section>
      )}
    </div>
  );
}
