import { data, Form, redirect } from 'react-router';
import type { Route } from './+types/admin-pair';
import { actorOf } from '~/routes/admin/auth.server';
import { dismissPair } from '~/domain/people/duplicates.server';
import { mergePeople } from '~/domain/people/merge.server';
import { getPerson } from '~/domain/people/register.server';
import { Notice, primaryButton, secondaryButton } from '~/ui/admin/Field';
import { PeopleTabs } from '~/ui/admin/people';
import { db, formOf, notFound, peopleUser, personView } from './admin.server';

const REFUSALS = { same: 'Choisissez deux fiches différentes.', missing: 'L’une des fiches est introuvable.', already_merged: 'L’une des fiches a déjà été fusionnée.' } as const;

/** Two records side by side (Admin): merged into the one kept, or said to be two people. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user } = await peopleUser(request, context, { admin: true });
  const [a, b] = await Promise.all([getPerson(db(), params.a), getPerson(db(), params.b, new Date(), { fold: false })]);
  if (!a || !b) notFound();
  return { a: personView(a, user), b: personView(b, user) };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const { user } = await peopleUser(request, context, { admin: true });
  const form = await formOf(request);
  if (form.intent === 'dismiss') {
    await dismissPair(db(), actorOf(user), params.a, params.b);
    throw redirect('/admin/donateurs/doublons');
  }
  const keep = form.keep === params.b ? params.b : form.keep === params.a ? params.a : null;
  if (!keep) return data({ error: 'Choisissez la fiche à conserver.' }, { status: 400 });
  const r = await mergePeople(db(), actorOf(user), keep, keep === params.a ? params.b : params.a);
  if (!r.ok) return data({ error: REFUSALS[r.refusal] }, { status: 409 });
  throw redirect(`/admin/donateurs/${keep}`);
}

export const meta: Route.MetaFunction = () => [{ title: 'Comparer deux fiches | Donateurs | Administration' }, { name: 'robots', content: 'noindex' }];

type View = ReturnType<typeof personView>;

function Card({ p }: { p: View }) {
  const f = p.figures;
  return (
    <section className="space-y-2 rounded-lg border border-gray-200 bg-white p-4" aria-label={p.name}>
      <h2 className="text-xl font-semibold break-words text-gray-900">{p.name}</h2>
      <ul className="space-y-1 text-gray-900">
        {p.emails.map((e) => <li key={e.email} className="break-all">{e.email}{e.name ? ` — ${e.name}` : ''}{e.postalCode ? `, ${e.postalCode}` : ''}{e.phone ? `, ${e.phone}` : ''}</li>)}
      </ul>
      <p className="text-gray-700">{f.gifts} don{f.gifts > 1 ? 's' : ''}, {f.total} en tout ; dernier don le {f.last}{f.monthly ? ' ; donne chaque mois' : ''}.</p>
    </section>
  );
}

export default function Pair({ loaderData, actionData }: Route.ComponentProps) {
  const { a, b } = loaderData;
  return (
    <div className="space-y-6">
      <h1 className="text-3xl font-bold text-gray-900">Comparer deux fiches</h1>
      <PeopleTabs admin />
      {actionData?.error && <Notice tone="error" title="Rien n’a été fusionné">{actionData.error}</Notice>}
      <div className="grid gap-4 md:grid-cols-2">
        <Card p={a} />
        <Card p={b} />
      </div>
      <Form method="post" className="space-y-3 rounded-lg border border-gray-200 bg-white p-4">
        <input type="hidden" name="intent" value="merge" />
        <fieldset className="space-y-2">
          <legend className="font-semibold text-gray-900">Fiche à conserver</legend>
          {[a, b].map((p, i) => (
            <label key={p.id} className="flex min-h-11 items-center gap-3">
              <input type="radio" name="keep" value={p.id} defaultChecked={i === 0} className="h-5 w-5" /> <span className="break-all">{p.name}</span>
            </label>
          ))}
        </fieldset>
        <p className="text-gray-700">Les adresses, notes et étiquettes de l’autre fiche rejoignent celle-ci ; dons, reçus (et leurs numéros), dons mensuels, adhésion, consentements et abonnements suivent leurs adresses sans être modifiés. La fusion peut être annulée tant que rien n’en dépend.</p>
        <button type="submit" className={primaryButton}>Fusionner</button>
      </Form>
      <Form method="post">
        <input type="hidden" name="intent" value="dismiss" />
        <button type="submit" className={secondaryButton}>Ce sont deux personnes différentes</button>
      </Form>
    </div>
  );
}
