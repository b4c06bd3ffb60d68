import { data, Form, Link } from 'react-router';
import type { Route } from './+types/admin-person';
import { actorOf } from '~/routes/admin/auth.server';
import { personPage } from '~/domain/donors/record.server';
import { STATUS_LABELS, type DonationStatus } from '~/domain/donations/status';
import { staffMeansLabel } from '~/domain/means/means';
import { undoMerge } from '~/domain/people/merge.server';
import { addNote, deleteNote, tagPerson, untagPerson } from '~/domain/people/notes.server';
import { NOTE_MAX, TAG_MAX } from '~/domain/people/notes';
import { UNDO_BLOCKER_LABELS } from '~/domain/people/rules';
import { formatMoney } from '~/lib/currency';
import { AdminTable } from '~/ui/admin/AdminTable';
import { Field, Notice, inputClass, primaryButton, secondaryButton } from '~/ui/admin/Field';
import { PeopleTabs } from '~/ui/admin/people';
import { db, day, euros, formOf, notFound, peopleUser, personView } from './admin.server';

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user, admin } = await peopleUser(request, context);
  const page = await personPage(db(), params.personId);
  if (!page) notFound();
  const contact = admin;
  return {
    admin,
    me: user.id,
    person: personView(page.person, user),
    gifts: page.gifts.map((g) => ({ id: g.id, date: day(g.date), amount: formatMoney(g.amountMinor, g.currency), means: staffMeansLabel(g.provider), status: STATUS_LABELS[g.status as DonationStatus] ?? g.status, kind: g.purpose === 'dues' ? 'Cotisation' : g.frequency === 'monthly' ? 'Mensuel' : 'Ponctuel', email: contact ? g.email : '' })),
    monthly: page.monthly.map((m) => ({ id: m.id, amount: formatMoney(m.amountMinor, m.currency), status: m.status, since: day(m.startedAt) })),
    memberships: page.memberships.map((m) => ({ number: m.number, type: m.type, createdAt: day(m.createdAt), dues: m.dues.map((d) => `${day(d.paidAt)} : ${d.amount} € (${d.status})`) })),
    receipts: page.receipts.map((r) => ({ id: r.id, number: r.number, kind: r.kind === 'annual' ? 'Annuel' : 'Don', amount: euros(r.amountCents), status: r.status === 'issued' ? 'Émis' : 'Annulé', issuedAt: day(r.issuedAt) })),
    subscriptions: page.subscriptions.map((s) => ({ status: s.status, language: s.language, since: day(s.createdAt), email: contact ? s.email : '' })),
    letters: page.letters.map((l) => ({ id: l.id, subject: l.subject, at: day(l.doneAt) })),
    consents: page.consents.map((c) => ({ kind: c.kind, given: day(c.givenAt), withdrawn: c.withdrawnAt ? day(c.withdrawnAt) : null })),
    notes: page.notes.map((n) => ({ id: n.id, body: n.body, author: n.authorName, at: day(n.createdAt), mine: n.authorId === user.id })),
    tags: page.tags,
    merges: page.merges.map((m) => ({ id: m.id, mergedName: m.mergedName, mergedId: m.mergedId, survivor: m.survivorId === params.personId, by: m.byName, at: day(m.at), undone: Boolean(m.undoneAt) })),
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const { user, admin } = await peopleUser(request, context);
  const form = await formOf(request);
  const id = params.personId;
  const fail = (error: string, status = 400) => data({ error, done: '' }, { status });
  if (form.intent === 'note') {
    const r = await addNote(db(), actorOf(user), id, form.body ?? '');
    return r.ok ? { error: '', done: 'Note enregistrée.' } : fail(r.error);
  }
  if (form.intent === 'delete-note') {
    return (await deleteNote(db(), actorOf(user), admin, id, form.note_id ?? '')) ? { error: '', done: 'Note supprimée.' } : fail('Cette note n’est pas la vôtre ou n’existe plus.', 403);
  }
  if (form.intent === 'tag') {
    const r = await tagPerson(db(), id, form.tag ?? '');
    return r.ok ? { error: '', done: 'Étiquette ajoutée.' } : fail(r.error);
  }
  if (form.intent === 'untag') {
    await untagPerson(db(), id, form.tag_id ?? '');
    return { error: '', done: 'Étiquette retirée.' };
  }
  if (form.intent === 'undo-merge') {
    if (!admin) return fail('Seul un Admin annule une fusion.', 403);
    const r = await undoMerge(db(), actorOf(user), form.merge_id ?? '');
    return r.ok ? { error: '', done: 'Fusion annulée : les deux fiches sont de nouveau séparées.' } : fail(r.blocker === 'missing' ? 'Cette fusion est introuvable.' : UNDO_BLOCKER_LABELS[r.blocker], 409);
  }
  return fail('Action inconnue.');
}

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `${loaderData?.person.name ?? 'Fiche'} | Donateurs | Administration` }, { name: 'robots', content: 'noindex' }];

function Section({ title, empty, children, count }: { title: string; empty: string; count: number; children: React.ReactNode }) {
  return (
    <section className="space-y-3">
      <h2 className="text-xl font-semibold text-gray-900">{title}</h2>
      {count === 0 ? <p className="text-gray-700">{empty}</p> : children}
    </section>
  );
}

export default function PersonScreen({ loaderData, actionData }: Route.ComponentProps) {
  const { admin, person, gifts, monthly, memberships, receipts, subscriptions, letters, consents, notes, tags, merges } = loaderData;
  const f = person.figures;
  return (
    // A long address or name breaks anywhere rather than widen the page (WCAG 1.4.10).
    <div className="space-y-8 wrap-anywhere">
      <PeopleTabs admin={admin} />
      <h1 className="text-3xl font-bold break-words text-gray-900">{person.name}</h1>
      {actionData?.error && <Notice tone="error" title="Rien n’a changé">{actionData.error}</Notice>}
      {actionData?.done && <Notice tone="success" title={actionData.done} />}
      {person.mergedInto && (
        <Notice tone="info" title="Fiche fusionnée">
          Cette fiche a été fusionnée dans <Link to={`/admin/donateurs/${person.mergedInto}`} className="underline">la fiche conservée</Link>.
        </Notice>
      )}
      <dl className="grid gap-3 rounded-lg border border-gray-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-4" data-testid="person-figures">
        {[['Dons', String(f.gifts)], ['Total donné', f.total], ['Cette année', f.thisYear], ['L’an dernier', f.lastYear], ['Premier don', f.first], ['Dernier don', f.last], ['Plus grand don', f.largest], ['Mensuel', f.monthly ? 'Oui' : 'Non']].map(([k, v]) => (
          <div key={k}><dt className="text-sm text-gray-700">{k}</dt><dd className="font-semibold text-gray-900">{v}</dd></div>
        ))}
      </dl>
      {admin && person.emails.length > 0 && (
        <Section title="Adresses" empty="" count={person.emails.length}>
          <ul className="list-disc space-y-1 pl-6">
            {person.emails.map((e) => <li key={e.email} className="break-all">{e.email}{e.name ? ` — ${e.name}` : ''}{e.postalCode ? `, ${e.postalCode}` : ''}{e.phone ? `, ${e.phone}` : ''}</li>)}
          </ul>
        </Section>
      )}
      <section className="space-y-3" aria-labelledby="tags-title">
        <h2 id="tags-title" className="text-xl font-semibold text-gray-900">Étiquettes</h2>
        <ul className="flex flex-wrap gap-2" data-testid="person-tags">
          {tags.map((t) => (
            <li key={t.id} className="inline-flex max-w-full items-center gap-1 rounded-full bg-gray-100 px-3 text-gray-900">
              <span className="min-w-0 wrap-anywhere">{t.name}</span>
              <Form method="post" className="inline">
                <input type="hidden" name="intent" value="untag" />
                <input type="hidden" name="tag_id" value={t.id} />
                <button type="submit" className="min-h-11 min-w-11 underline" aria-label={`Retirer l’étiquette ${t.name}`}>×</button>
              </Form>
            </li>
          ))}
        </ul>
        <Form method="post" className="flex flex-wrap items-end gap-3">
          <input type="hidden" name="intent" value="tag" />
          <Field name="tag" label="Ajouter une étiquette (nouvelle ou existante)" maxLength={TAG_MAX} required />
          <button type="submit" className={secondaryButton}>Ajouter</button>
        </Form>
      </section>
      <section className="space-y-3" aria-labelledby="notes-title">
        <h2 id="notes-title" className="text-xl font-semibold text-gray-900">Notes</h2>
        <Form method="post" className="space-y-3">
          <input type="hidden" name="intent" value="note" />
          <label htmlFor="body" className="block text-sm font-medium text-gray-900">Nouvelle note</label>
          <textarea id="body" name="body" rows={3} maxLength={NOTE_MAX} required className={inputClass(false)} />
          <button type="submit" className={primaryButton}>Enregistrer la note</button>
        </Form>
        <ul className="space-y-3" data-testid="person-notes">
          {notes.map((n) => (
            <li key={n.id} className="rounded-lg border border-gray-200 bg-white p-3">
              <p className="whitespace-pre-wrap break-words text-gray-900">{n.body}</p>
              <p className="text-sm text-gray-700">{n.author}, le {n.at}</p>
              {(admin || n.mine) && (
                <Form method="post">
                  <input type="hidden" name="intent" value="delete-note" />
                  <input type="hidden" name="note_id" value={n.id} />
                  <button type="submit" className="min-h-11 text-sm underline">Supprimer<span className="sr-only"> la note du {n.at}</span></button>
                </Form>
              )}
            </li>
          ))}
        </ul>
      </section>
      <Section title="Dons et cotisations" empty="Aucun paiement." count={gifts.length}>
        <AdminTable caption="Dons et cotisations" columns={['Date', 'Montant', 'Nature', 'Moyen', 'Statut', ...(admin ? ['Adresse'] : [])]}>
          {gifts.map((g) => (
            <tr key={g.id}>
              <td className="px-4 py-3 whitespace-nowrap">{g.date}</td>
              <td className="px-4 py-3 whitespace-nowrap">{g.amount}</td>
              <td className="px-4 py-3">{g.kind}</td>
              <td className="px-4 py-3">{g.means}</td>
              <td className="px-4 py-3">{g.status}</td>
              {admin && <td className="px-4 py-3 break-all">{g.email}</td>}
              <td className="px-4 py-3" />
            </tr>
          ))}
        </AdminTable>
      </Section>
      <Section title="Dons mensuels" empty="Aucun don mensuel." count={monthly.length}>
        <ul className="list-disc pl-6">{monthly.map((m) => <li key={m.id}>{m.amount} par mois depuis le {m.since} ({m.status})</li>)}</ul>
      </Section>
      <Section title="Adhésion" empty="Pas d’adhésion." count={memberships.length}>
        <ul className="list-disc pl-6">{memberships.map((m) => <li key={m.number}>N° {m.number}, {m.type}, depuis le {m.createdAt}{m.dues.length ? ` — cotisations : ${m.dues.join(' ; ')}` : ''}</li>)}</ul>
      </Section>
      <Section title="Reçus fiscaux" empty="Aucun reçu." count={receipts.length}>
        <ul className="list-disc pl-6">{receipts.map((r) => <li key={r.id}>{r.number} — {r.kind}, {r.amount}, {r.status} le {r.issuedAt}</li>)}</ul>
      </Section>
      <Section title="Abonnements et lettres reçues" empty="Ni abonnement ni lettre." count={subscriptions.length + letters.length}>
        <ul className="list-disc pl-6">
          {subscriptions.map((s, i) => <li key={`s${i}`}>Abonnement {s.status} ({s.language}) depuis le {s.since}{s.email ? ` — ${s.email}` : ''}</li>)}
          {letters.map((l) => <li key={l.id}>Lettre « {l.subject} », reçue le {l.at}</li>)}
        </ul>
      </Section>
      <Section title="Consentements" empty="Aucun consentement." count={consents.length}>
        <ul className="list-disc pl-6">{consents.map((c, i) => <li key={i}>{c.kind} donné le {c.given}{c.withdrawn ? `, retiré le ${c.withdrawn}` : ''}</li>)}</ul>
      </Section>
      <Section title="Fusions" empty="Aucune fusion." count={merges.length}>
        <ul className="space-y-2">
          {merges.map((m) => (
            <li key={m.id} className="flex flex-wrap items-center gap-3">
              <span>{m.survivor ? `« ${m.mergedName} » fusionnée ici` : 'Cette fiche a été fusionnée'} par {m.by} le {m.at}{m.undone ? ' (annulée)' : ''}</span>
              {admin && m.survivor && !m.undone && (
                <Form method="post">
                  <input type="hidden" name="intent" value="undo-merge" />
                  <input type="hidden" name="merge_id" value={m.id} />
                  <button type="submit" className={secondaryButton}>Annuler la fusion</button>
                </Form>
              )}
            </li>
          ))}
        </ul>
      </Section>
    </div>
  );
}
