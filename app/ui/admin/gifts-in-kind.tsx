/**
 * The screen of gifts not in money (ADR 030): the nature chosen first (goods, or a volunteer's
 * waived expenses), then one form — what is given, its valuation and basis (for the car's mileage
 * scale, the distance and fiscal horsepower, computed on the server), the written waiver, the
 * evidence — and the table of such gifts with their evidence and "Annuler la saisie…".
 */
import { Form, Link } from 'react-router';
import { EXPENSE_BASES, GOODS_BASES, type NatureMeans } from '~/domain/offline-gifts/nature-form';
import { CAR_SCALE } from '~/domain/offline-gifts/mileage';
import { AdminTable } from './AdminTable';
import { VoidEntry } from './VoidEntry';
import { Field, SelectField, primaryButton } from './Field';
import { DonorFields, NoReceipt, type EntryState, type LineView } from './offline-gifts';

export const NATURE_TITLES: Record<NatureMeans, string> = { in_kind: 'Don en nature', waived_expenses: 'Abandon de frais' };

/** The two natures, as links (the form below follows the one chosen). */
export function NatureChoice({ means, path }: { means: NatureMeans; path: string }) {
  return (
    <nav aria-label="Nature du don" className="flex flex-wrap gap-2">
      {(Object.keys(NATURE_TITLES) as NatureMeans[]).map((m) => (
        <Link key={m} to={`${path}?type=${m}`} aria-current={m === means ? 'page' : undefined} className={`rounded-md border px-3 py-2 font-medium ${m === means ? 'border-blue-800 bg-blue-800 text-white' : 'border-gray-400 bg-white text-gray-900 underline'}`}>
          {NATURE_TITLES[m]}
        </Link>
      ))}
    </nav>
  );
}

const euros3 = (millis: number) => (millis / 1000).toFixed(3).replace('.', ',');

/** The scale the server applies, for the staff to check the amount computed. */
function MileageScale() {
  return (
    <details className="text-sm text-gray-800">
      <summary className="cursor-pointer underline">Le barème kilométrique appliqué (€ par km, d = distance)</summary>
      <ul className="mt-2 space-y-1">
        {Object.entries(CAR_SCALE).map(([cv, l]) => (
          <li key={cv}>
            {cv === '3' ? '3 CV et moins' : cv === '7' ? '7 CV et plus' : `${cv} CV`} : jusqu’à 5 000 km d × {euros3(l.a)} ; de 5 001 à 20 000 km (d × {euros3(l.b)}) + {l.c} € ; au-delà d × {euros3(l.e)}
          </li>
        ))}
        <li>Voiture 100 % électrique : montant majoré de 20 %.</li>
      </ul>
    </details>
  );
}

/** One gift in kind or waived expenses, with its evidence (multipart). */
export function NatureGiftForm({ entry, means, errors, values = {} }: { entry: EntryState; means: NatureMeans; errors: Record<string, string>; values?: Record<string, string> }) {
  const v = (name: string, fallback = '') => values[name] ?? fallback;
  const goods = means === 'in_kind';
  const bases = goods ? GOODS_BASES : EXPENSE_BASES;
  return (
    <Form method="post" encType="multipart/form-data" noValidate className="space-y-4 rounded-lg border border-gray-200 bg-white p-4" key={entry.token} aria-labelledby="entry-title">
      <h2 id="entry-title" className="text-lg font-bold text-gray-900">{goods ? 'Saisir un don en nature' : 'Saisir un abandon de frais'}</h2>
      <input type="hidden" name="intent" value="nature" />
      <input type="hidden" name="token" value={entry.token} />
      <input type="hidden" name="means" value={means} />
      <Field name="description" label={goods ? 'Biens donnés *' : 'Frais abandonnés (objet, dates) *'} hint={goods ? 'Ex. : 10 ordinateurs portables reconditionnés' : 'Ex. : trajets vers l’entrepôt de Rungis, janvier à mars'} defaultValue={v('description')} error={errors.description} required maxLength={300} autoFocus={Boolean(entry.donor)} autoComplete="off" />
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField name="basis" label="Base de l’évaluation *" options={Object.keys(bases)} labels={bases} empty="Choisir…" defaultValue={v('basis')} error={errors.basis} />
        <Field name="amount" label={goods ? 'Valeur en euros *' : 'Montant en euros (sauf barème kilométrique)'} inputMode="decimal" defaultValue={v('amount')} error={errors.amount} autoComplete="off" />
        {goods && <Field name="basis_detail" label="Précision sur l’évaluation (facture n°, source du prix…)" defaultValue={v('basis_detail')} error={errors.basis_detail} maxLength={300} className="sm:col-span-2" />}
      </div>
      {!goods && (
        <fieldset className="space-y-3 rounded-md border border-gray-300 p-3">
          <legend className="px-1 font-semibold text-gray-900">Barème kilométrique (voiture du bénévole)</legend>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field name="km" label="Kilomètres parcourus pour la fondation" inputMode="numeric" defaultValue={v('km')} error={errors.km} autoComplete="off" />
            <Field name="horsepower" label="Puissance fiscale (CV, carte grise P.6)" inputMode="numeric" defaultValue={v('horsepower')} error={errors.horsepower} autoComplete="off" />
          </div>
          <div className="flex items-center gap-2">
            <input id="electric" name="electric" type="checkbox" defaultChecked={v('electric') === 'on'} className="h-5 w-5" />
            <label htmlFor="electric" className="text-gray-900">Voiture 100 % électrique</label>
          </div>
          <MileageScale />
        </fieldset>
      )}
      {!goods && (
        <div>
          <div className="flex items-center gap-2">
            <input id="waiver" name="waiver" type="checkbox" defaultChecked={v('waiver') === 'on'} aria-invalid={errors.waiver ? true : undefined} aria-describedby={errors.waiver ? 'waiver-error' : undefined} className="h-5 w-5" />
            <label htmlFor="waiver" className="text-gray-900">Le bénévole a renoncé par écrit au remboursement *</label>
          </div>
          {errors.waiver && <p id="waiver-error" className="mt-1 text-sm text-red-800">{errors.waiver}</p>}
        </div>
      )}
      <Field name="evidence" type="file" label="Justificatif * (PDF, JPEG ou PNG, 5 Mo au plus)" accept="application/pdf,image/jpeg,image/png,.pdf,.jpg,.jpeg,.png" error={errors.evidence} required />
      <DonorFields donor={entry.donor} v={v} errors={errors} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field name="received_on" label="Date du don *" type="date" defaultValue={v('received_on', entry.today)} max={entry.today} error={errors.received_on} required />
        <Field name="note" label="Note" defaultValue={v('note')} error={errors.note} maxLength={300} />
      </div>
      <NoReceipt checked={v('no_receipt') === 'on'} ifi={entry.ifi ? v('ifi') === 'on' : null} />
      <button type="submit" className={primaryButton}>Enregistrer le don</button>
    </Form>
  );
}

export type NatureLineView = LineView & { nature: string; description: string; basis: string; evidence: string };

/** Gifts in kind and waived expenses: what, valued how, the evidence to download; an Admin may take one back. */
export function NatureLines({ lines, errors, evidencePath }: { lines: NatureLineView[]; errors: Record<string, string>; evidencePath: (id: string) => string }) {
  return (
    <AdminTable caption="Derniers dons en nature et abandons de frais saisis" columns={['Date', 'Valeur', 'Nature', 'Donateur', 'Justificatif', 'Reçu fiscal', 'Statut']}>
      {lines.map((l) => (
        <tr key={l.id}>
          <td className="px-4 py-3 whitespace-nowrap">{l.receivedOn}</td>
          <td className="px-4 py-3 whitespace-nowrap">{l.amount}</td>
          <td className="px-4 py-3 wrap-anywhere">{l.nature} — {l.description}<span className="block text-sm text-gray-700">{l.basis}</span></td>
          <td className="px-4 py-3 wrap-anywhere">{l.donor}{l.email && <span className="block text-sm text-gray-700">{l.email}</span>}</td>
          <td className="px-4 py-3 wrap-anywhere">{l.evidence ? <a href={evidencePath(l.id)} className="underline">{l.evidence}<span className="sr-only"> (justificatif du don de {l.donor})</span></a> : '—'}</td>
          <td className="px-4 py-3 whitespace-nowrap">{l.receipt}</td>
          <td className="px-4 py-3">{l.status}{l.voidReason && <span className="block text-sm text-gray-700 wrap-anywhere">{l.voidReason}</span>}</td>
          <td className="px-4 py-3">{l.voidable && <VoidEntry intent="void" paymentId={l.id} label={`Motif de l’annulation (${l.amount}, ${l.donor}) *`} button="Annuler ce don et son reçu" error={errors[`void:${l.id}`]} width="w-56" />}</td>
        </tr>
      ))}
    </AdminTable>
  );
}
