/**
 * The screens of gifts received by post or at the bank (ADR 028): the donor search, the entry form
 * made for typing a pile of cheques with the keyboard alone (amount, number, bank, Enter), and the
 * table of gifts with "Annuler la saisie…".
 */
import type { ReactNode } from 'react';
import { Form } from 'react-router';
import type { KnownDonor } from '~/domain/offline-gifts/donors.server';
import { SINGLE_MEANS } from '~/domain/offline-gifts/forms';
import { shortMeansLabel } from '~/domain/means/means';
import type { OfflineGiftLine } from '~/domain/offline-gifts/gifts.server';
import { STATUS_LABELS, type DonationStatus } from '~/domain/donations/status';
import { formatMoney } from '~/lib/currency';
import { dayFr } from '~/lib/paris';
import { AdminTable } from './AdminTable';
import { VoidEntry } from './VoidEntry';
import { Field, SelectField, inputClass, primaryButton, secondaryButton } from './Field';

/** A gift line as the tables show it. */
export function lineView(l: OfflineGiftLine, admin: boolean) {
  return {
    id: l.paymentId,
    receivedOn: dayFr(l.receivedOn),
    amount: formatMoney(l.amountCents, 'EUR'),
    means: shortMeansLabel(l.means),
    donor: l.donorName,
    email: l.donorEmail,
    reference: l.reference,
    bank: l.bank,
    drawer: l.drawer,
    status: STATUS_LABELS[l.status as DonationStatus] ?? l.status,
    voidReason: l.voidReason,
    receipt: l.receiptNumber ? `${l.receiptNumber}${l.receiptStatus === 'cancelled' ? ' (annulé)' : ''}` : '—',
    voidable: admin && l.status === 'succeeded',
  };
}
export type LineView = ReturnType<typeof lineView>;

export interface EntryState {
  token: string;
  today: string;
  q: string;
  found: KnownDonor[] | null;
  donor: KnownDonor | null;
  campaigns: { slug: string; title: string }[];
  /** The IFI option (ADR 035), when the foundation is eligible. */
  ifi?: boolean;
}

/**
 * Finds a known donor (GET: the address keeps the search); "Choisir" fills the entry form with their
 * details. Drawn anew for each fresh form (its token), so the keyboard's place is set again after
 * each gift: the search field, or the first donor found.
 */
export function DonorSearch({ entry, path, keep = {} }: { entry: EntryState; path: string; keep?: Record<string, string> }) {
  const kept = Object.entries(keep).map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />);
  return (
    <section key={entry.token} aria-labelledby="donor-search" className="space-y-3 rounded-lg border border-gray-200 bg-white p-4">
      <h2 id="donor-search" className="text-lg font-bold text-gray-900">Donateur déjà connu ?</h2>
      <Form method="get" action={path} className="flex flex-wrap items-end gap-3">
        {kept}
        <div className="min-w-0 flex-1">
          <label htmlFor="q" className="block text-sm font-medium text-gray-900">Rechercher (nom, e-mail, code postal)</label>
          <input id="q" name="q" type="search" defaultValue={entry.q} className={inputClass(false)} autoFocus={!entry.donor && !entry.found?.length} autoComplete="off" />
        </div>
        <button type="submit" className={secondaryButton}>Chercher</button>
      </Form>
      {entry.found && (entry.found.length === 0 ? (
        <p className="text-gray-700">Aucun donateur trouvé : saisissez ses coordonnées ci-dessous.</p>
      ) : (
        <ul className="space-y-2" aria-label="Donateurs trouvés">
          {entry.found.map((d, i) => (
            <li key={d.fromGift} className="wrap-anywhere">
              <Form method="get" action={path} className="flex flex-wrap items-center gap-2">
                {kept}
                <input type="hidden" name="donneur" value={d.fromGift} />
                <button type="submit" className={secondaryButton} autoFocus={i === 0}>Choisir {d.company || d.name}</button>
                <span className="text-gray-700">{[d.email, `${d.postalCode} ${d.city}`.trim()].filter(Boolean).join(' — ')}</span>
              </Form>
            </li>
          ))}
        </ul>
      ))}
    </section>
  );
}

/** One gift: a cheque of the batch (`means` cheque) or a transfer or cash (`means` single). */
export function GiftEntryForm({ entry, means, errors, values = {}, submitLabel }: { entry: EntryState; means: 'cheque' | 'single'; errors: Record<string, string>; values?: Record<string, string>; submitLabel: string }) {
  const d = entry.donor;
  const v = (name: string, fallback = '') => values[name] ?? fallback;
  const cheque = means === 'cheque';
  return (
    <Form method="post" noValidate className="space-y-4 rounded-lg border border-gray-200 bg-white p-4" key={entry.token} aria-labelledby="entry-title">
      <h2 id="entry-title" className="text-lg font-bold text-gray-900">{cheque ? 'Saisir un chèque' : 'Saisir un virement ou des espèces'}</h2>
      <input type="hidden" name="intent" value="gift" />
      <input type="hidden" name="token" value={entry.token} />
      {cheque ? <input type="hidden" name="means" value="cheque" /> : <SelectField name="means" label="Moyen *" options={SINGLE_MEANS} labels={Object.fromEntries(SINGLE_MEANS.map((m) => [m, shortMeansLabel(m)]))} defaultValue={v('means', 'transfer')} error={errors.means} />}
      <div className="grid gap-4 sm:grid-cols-3">
        <Field name="amount" label="Montant en euros *" inputMode="decimal" defaultValue={v('amount')} error={errors.amount} required autoFocus={Boolean(d)} autoComplete="off" />
        {cheque ? (
          <>
            <Field name="cheque_number" label="N° de chèque *" defaultValue={v('cheque_number')} error={errors.cheque_number} required maxLength={20} autoComplete="off" />
            <Field name="bank" label="Banque *" defaultValue={v('bank')} error={errors.bank} required maxLength={60} />
          </>
        ) : (
          <Field name="reference" label="Référence (libellé du virement)" defaultValue={v('reference')} error={errors.reference} maxLength={60} className="sm:col-span-2" />
        )}
      </div>
      <DonorFields donor={d} v={v} errors={errors}>
        {cheque && <Field name="drawer" label="Tireur (si autre que le donateur)" defaultValue={v('drawer')} error={errors.drawer} maxLength={120} />}
      </DonorFields>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field name="received_on" label="Reçu le *" type="date" defaultValue={v('received_on', entry.today)} max={entry.today} error={errors.received_on} required />
        <SelectField name="campaign_id" label="Campagne" options={entry.campaigns.map((c) => c.slug)} labels={Object.fromEntries(entry.campaigns.map((c) => [c.slug, c.title]))} empty="Aucune (don général)" defaultValue={v('campaign_id')} error={errors.campaign_id} />
        <Field name="note" label="Note" defaultValue={v('note')} error={errors.note} maxLength={300} className="sm:col-span-2" />
      </div>
      <NoReceipt checked={v('no_receipt') === 'on'} ifi={entry.ifi ? v('ifi') === 'on' : null} />
      <button type="submit" className={primaryButton}>{submitLabel}</button>
    </Form>
  );
}

/** The donor's fields of an entry form, filled from a donor chosen in the search; `children` adds fields to the fieldset. */
export function DonorFields({ donor: d, v, errors, children }: { donor: KnownDonor | null; v: (name: string, fallback?: string) => string; errors: Record<string, string>; children?: ReactNode }) {
  return (
    <fieldset className="grid gap-4 sm:grid-cols-2">
      <legend className="mb-2 font-semibold text-gray-900">Donateur {d && <span className="font-normal">(rempli d’après un don précédent)</span>}</legend>
      <Field name="name" label="Nom et prénom *" defaultValue={v('name', d?.name)} error={errors.name} required maxLength={120} />
      <Field name="email" label="E-mail (facultatif)" type="email" defaultValue={v('email', d?.email)} error={errors.email} maxLength={254} />
      <Field name="address" label="Adresse" defaultValue={v('address', d?.address)} error={errors.address} maxLength={200} className="sm:col-span-2" />
      <Field name="postal_code" label="Code postal" defaultValue={v('postal_code', d?.postalCode)} error={errors.postal_code} maxLength={12} />
      <Field name="city" label="Commune" defaultValue={v('city', d?.city)} error={errors.city} maxLength={120} />
      <Field name="country" label="Pays" defaultValue={v('country', d?.country || 'France')} error={errors.country} maxLength={80} />
      <Field name="company" label="Entreprise (reçu au nom de la société)" defaultValue={v('company', d?.company)} error={errors.company} maxLength={160} />
      <Field name="legal_form" label="Forme juridique de l’entreprise (SAS, SARL, association…)" defaultValue={v('legal_form', d?.legalForm)} error={errors.legal_form} maxLength={60} />
      <Field name="siren" label="SIREN de l’entreprise" defaultValue={v('siren', d?.siren)} error={errors.siren} maxLength={11} />
      {children}
    </fieldset>
  );
}

/** "Pas de reçu fiscal": the donor's address is then not required. `ifi` (ticked or not): the IFI option, offered when the foundation is eligible (ADR 035); null: not offered. */
export function NoReceipt({ checked, ifi = null }: { checked: boolean; ifi?: boolean | null }) {
  return (
    <>
      <div className="flex items-center gap-2">
        <input id="no_receipt" name="no_receipt" type="checkbox" defaultChecked={checked} className="h-5 w-5" />
        <label htmlFor="no_receipt" className="text-gray-900">Pas de reçu fiscal (sinon l’adresse est obligatoire)</label>
      </div>
      {ifi !== null && (
        <div className="flex items-center gap-2">
          <input id="ifi" name="ifi" type="checkbox" defaultChecked={ifi} className="h-5 w-5" />
          <label htmlFor="ifi" className="text-gray-900">Don au titre de l’IFI (particulier : reçu article 978 du CGI, réduction de 75 % dans la limite de 50 000 €)</label>
        </div>
      )}
    </>
  );
}

/** The gifts of a batch or typed one by one; an Admin may take one back with a reason. */
export function GiftLines({ caption, lines, errors, cheques }: { caption: string; lines: LineView[]; errors: Record<string, string>; cheques: boolean }) {
  const columns = cheques ? ['Montant', 'N° de chèque', 'Banque', 'Donateur', 'Reçu fiscal', 'Statut'] : ['Reçu le', 'Montant', 'Moyen', 'Donateur', 'Reçu fiscal', 'Statut'];
  return (
    <AdminTable caption={caption} columns={columns}>
      {lines.map((l) => (
        <tr key={l.id}>
          {cheques ? (
            <>
              <td className="px-4 py-3 whitespace-nowrap">{l.amount}</td>
              <td className="px-4 py-3">{l.reference}</td>
              <td className="px-4 py-3">{l.bank}</td>
            </>
          ) : (
            <>
              <td className="px-4 py-3 whitespace-nowrap">{l.receivedOn}</td>
              <td className="px-4 py-3 whitespace-nowrap">{l.amount}</td>
              <td className="px-4 py-3">{l.means}{l.reference && ` — ${l.reference}`}</td>
            </>
          )}
          <td className="px-4 py-3 wrap-anywhere">{l.donor}{l.email && <span className="block text-sm text-gray-700">{l.email}</span>}</td>
          <td className="px-4 py-3 whitespace-nowrap">{l.receipt}</td>
          <td className="px-4 py-3">{l.status}{l.voidReason && <span className="block text-sm text-gray-700 wrap-anywhere">{l.voidReason}</span>}</td>
          <td className="px-4 py-3">{l.voidable && <VoidEntry intent="void" paymentId={l.id} label={`Motif de l’annulation (${l.amount}, ${l.donor}) *`} button="Annuler ce don et son reçu" error={errors[`void:${l.id}`]} width="w-56" />}</td>
        </tr>
      ))}
    </AdminTable>
  );
}
