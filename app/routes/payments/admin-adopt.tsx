import { Form, data } from 'react-router';
import type { Route } from './+types/admin-adopt';
import { adoptableSubscriptions, adoptSubscriptions, isAdoptingProvider, type AdoptionOutcome } from '~/domain/donations/adoption.server';
import { donationDeps } from '~/domain/donations/deps.server';
import { staffMeansLabel } from '~/domain/means/means';
import { actorOf, requireUser } from '~/routes/admin/auth.server';
import { AdminTable } from '~/ui/admin/AdminTable';
import { Notice, primaryButton } from '~/ui/admin/Field';
import { useToast } from '~/ui/admin/hooks';

/**
 * /admin/dons/abonnements (Admin): the monthly donors a foundation arrives with (ADR 037) — the
 * subscriptions already running on its payment account that are no gift of ours yet, adopted as
 * monthly gifts without a new checkout (the rules: donations/adoption.server.ts).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'adoption' });
  const { subscriptions, errors } = await adoptableSubscriptions(await donationDeps(request));
  const day = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'medium', timeZone: 'Europe/Paris' });
  return {
    errors: errors.map((e) => `${staffMeansLabel(e.provider)} : ${e.message}`),
    subscriptions: subscriptions.map((s) => ({
      key: `${s.provider}:${s.id}`,
      id: s.id,
      means: staffMeansLabel(s.provider),
      donor: [s.name, s.email].filter(Boolean).join(' · ') || '—',
      amount: amountOf(s.amountMinor, s.currency),
      next: s.nextAt ? day.format(new Date(s.nextAt)) : '—',
      since: day.format(new Date(s.startedAt)),
      refusal: s.refusal,
    })),
  };
}

/** An amount in whatever currency the provider charges it (adoption takes euros only, the list shows all). */
function amountOf(minor: number, currency: string): string {
  try {
    return `${new Intl.NumberFormat('fr-FR', { style: 'currency', currency }).format(minor / 100)} / mois`;
  } catch {
    return '—';
  }
}

const SAID: Record<AdoptionOutcome, (n: number) => string> = {
  adopted: (n) => `${n} don${n > 1 ? 's' : ''} mensuel${n > 1 ? 's' : ''} repris`,
  already: (n) => `${n} déjà repris`,
  refused: (n) => `${n} impossible${n > 1 ? 's' : ''} à reprendre`,
  missing: (n) => `${n} introuvable${n > 1 ? 's' : ''} chez le prestataire`,
};

export async function action({ request, context }: Route.ActionArgs) {
  const me = await requireUser(request, context, { area: 'adoption' });
  const chosen = (await request.formData()).getAll('sub').filter((v): v is string => typeof v === 'string');
  const byProvider = new Map<string, string[]>();
  for (const key of chosen) {
    const [provider, id] = key.split(':', 2);
    if (!isAdoptingProvider(provider) || !id) continue;
    byProvider.set(provider, [...(byProvider.get(provider) ?? []), id]);
  }
  if (byProvider.size === 0) return data({ error: 'Cochez au moins un don mensuel à reprendre.', toast: null }, { status: 400 });
  const deps = await donationDeps(request);
  const total: Record<AdoptionOutcome, number> = { adopted: 0, already: 0, refused: 0, missing: 0 };
  for (const [provider, ids] of byProvider) {
    const counts = await adoptSubscriptions(deps, actorOf(me), provider as Parameters<typeof adoptSubscriptions>[2], ids);
    for (const k of Object.keys(total) as AdoptionOutcome[]) total[k] += counts[k];
  }
  const description = (Object.keys(SAID) as AdoptionOutcome[]).filter((k) => total[k] > 0).map((k) => SAID[k](total[k])).join(' ; ');
  return { error: null, counts: total, toast: { title: total.adopted > 0 ? 'Dons mensuels repris' : 'Aucun don mensuel repris', description: `${description}.`, variant: total.adopted > 0 ? ('success' as const) : ('default' as const) } };
}

export const meta: Route.MetaFunction = () => [{ title: 'Dons mensuels à reprendre | Administration' }, { name: 'robots', content: 'noindex' }];

export default function AdoptScreen({ loaderData, actionData }: Route.ComponentProps) {
  const { subscriptions, errors } = loaderData;
  useToast(actionData?.toast);
  return (
    <div className="max-w-5xl space-y-6">
      <h1 className="text-3xl font-bold text-gray-900">Dons mensuels à reprendre</h1>
      <p className="text-gray-700">
        Les abonnements qui tournent déjà sur le compte de paiement de la fondation (votre ancien site) deviennent des dons mensuels d’ici, sans nouveau paiement : le montant, la date du prochain prélèvement et la carte restent ceux du prestataire. Les prochains prélèvements arrivent comme les autres, et chaque donateur gère son don depuis son espace. Aucun courriel n’est envoyé.
      </p>
      {errors.map((e) => (
        <Notice key={e} tone="error" title="Le prestataire n’a pas pu être interrogé">{e}</Notice>
      ))}
      {actionData?.error && <Notice tone="error">{actionData.error}</Notice>}
      {actionData?.toast && <Notice tone={actionData.toast.variant === 'success' ? 'success' : 'info'} title={actionData.toast.title} testId="adopt-result">{actionData.toast.description}</Notice>}
      {subscriptions.length === 0 ? (
        <p className="text-gray-700" data-testid="adopt-empty">Aucun abonnement en cours à reprendre.</p>
      ) : (
        <Form method="post" className="space-y-4">
          <AdminTable caption="Abonnements en cours chez le prestataire" columns={['Donateur', 'Montant', 'Prochain prélèvement', 'Depuis', 'Prestataire']}>
            {subscriptions.map((s) => (
              <tr key={s.key} data-testid="adoptable">
                <td className="px-4 py-3 wrap-anywhere text-gray-900">{s.donor}</td>
                <td className="px-4 py-3 text-gray-900">{s.amount}</td>
                <td className="px-4 py-3 text-gray-900">{s.next}</td>
                <td className="px-4 py-3 text-gray-900">{s.since}</td>
                <td className="px-4 py-3 text-gray-900">{s.means}</td>
                <td className="px-4 py-3">
                  {s.refusal ? (
                    <span className="text-sm text-gray-700">Non repris : {s.refusal}</span>
                  ) : (
                    <label className="inline-flex min-h-11 items-center gap-2 font-medium text-gray-900">
                      <input type="checkbox" name="sub" value={s.key} defaultChecked className="h-5 w-5" /> Reprendre <span className="sr-only">{s.donor}</span>
                    </label>
                  )}
                </td>
              </tr>
            ))}
          </AdminTable>
          <button type="submit" className={primaryButton}>Reprendre les dons cochés</button>
        </Form>
      )}
    </div>
  );
}
