import { Form, data } from 'react-router';
import type { Route } from './+types/admin-settings';
import { LEGAL_BASES, MODELS, RATES, missingFields, receiptSettingsSchema, type LegalBase, type Rate, type ReceiptModel } from '~/domain/receipts/settings';
import { getReceiptSettings, saveReceiptSettings } from '~/domain/receipts/settings.server';
import { seriesState, setNextReceiptNumber } from '~/domain/receipts/next-number.server';
import { actorOf, requireUser } from '~/routes/admin/auth.server';
import { contentChanged, runtime } from '~/lib/runtime.server';
import { fixFieldsToast, formError, issueErrors } from '~/lib/form-errors.server';
import { Field, Notice, inputClass, primaryButton } from '~/ui/admin/Field';
import { ImageField } from '~/ui/admin/ImageField';
import { useToast } from '~/ui/admin/hooks';

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'receipts' });
  const s = await getReceiptSettings(runtime().db);
  return { settings: s, missing: missingFields(s), series: await seriesState(runtime().db, s.prefix) };
}

const SAVED = { title: 'Paramètres des reçus sauvegardés !', description: 'Vos modifications ont été enregistrées avec succès.', variant: 'success' as const };
const CONFLICT = 'Ces paramètres ont été modifiés entre-temps par quelqu’un d’autre. Rechargez la page pour voir la dernière version.';

export async function action({ request, context }: Route.ActionArgs) {
  const me = await requireUser(request, context, { area: 'receipts' });
  const form = await request.formData();
  // The next number of the current series (ADR 037): a form of its own.
  if (form.get('intent') === 'nextNumber') {
    const set = await setNextReceiptNumber(runtime().db, actorOf(me), String(form.get('next') ?? ''));
    if (!set.ok) return formError({ errors: { next: set.error } as Record<string, string>, toast: fixFieldsToast('Numéro non enregistré') });
    return { errors: {} as Record<string, string>, toast: set.changed ? { title: `Le prochain reçu portera le n° ${set.next}.`, description: 'La numérotation de la série reprend à ce numéro.', variant: 'success' as const } : { title: `Le n° ${set.next} est déjà le prochain.`, description: 'Rien n’a changé.', variant: 'success' as const } };
  }
  const raw = Object.fromEntries([...form.entries()].map(([k, v]) => [k, typeof v === 'string' ? v : '']));
  const version = Number(form.get('version'));
  if (!Number.isInteger(version) || version < 0) return data({ errors: { form: CONFLICT } as Record<string, string>, toast: null }, { status: 409 });
  const parsed = receiptSettingsSchema.safeParse({ ...raw, enabled: raw.enabled ?? '' });
  if (!parsed.success) {
    return formError({ errors: issueErrors(parsed.error.issues), toast: fixFieldsToast('Paramètres non enregistrés') });
  }
  const saved = await saveReceiptSettings(runtime().db, actorOf(me), parsed.data, version);
  if (saved !== 'ok') return data({ errors: { form: CONFLICT } as Record<string, string>, toast: null }, { status: 409 });
  // The donate page shows the receipt's fieldset when receipts are on: cached pages are dropped.
  await contentChanged();
  return { errors: {} as Record<string, string>, toast: SAVED };
}

export const meta: Route.MetaFunction = () => [{ title: 'Reçus fiscaux | Administration' }, { name: 'robots', content: 'noindex' }];

export default function ReceiptSettingsScreen({ loaderData, actionData }: Route.ComponentProps) {
  const { settings: s, missing, series } = loaderData;
  const errors = actionData?.errors ?? {};
  useToast(actionData?.toast);
  return (
    <div className="max-w-3xl space-y-6">
      <h1 className="text-3xl font-bold text-gray-900">Reçus fiscaux</h1>
      <p className="text-gray-700">
        Les reçus des particuliers suivent le modèle CERFA n° 11580 (article 200, ou 978 pour l’IFI), ceux des entreprises le modèle CERFA n° 16216 (article 238 bis). Ils ne sont émis que lorsque l’émission est activée et que tous les champs obligatoires (*) sont remplis.
      </p>
      {!s.enabled ? (
        <Notice tone="info" title="Émission désactivée" testId="receipts-state">Aucun reçu n’est émis tant que l’émission n’est pas activée.</Notice>
      ) : missing.length ? (
        <Notice tone="error" title="Aucun reçu n’est émis : champs obligatoires vides" testId="receipts-state">{missing.join(', ')}</Notice>
      ) : (
        <Notice tone="success" title="Émission active" testId="receipts-state">Chaque don confirmé reçoit son reçu.</Notice>
      )}
      {errors.form && <Notice tone="error">{errors.form}</Notice>}
      {actionData?.toast && <Notice tone="success" title={actionData.toast.title} />}
      <Form method="post" className="space-y-6 rounded-lg border border-gray-200 bg-white p-6 shadow-sm" noValidate>
        <input type="hidden" name="version" value={s.version} />
        <label className="inline-flex min-h-11 items-center gap-3 font-medium text-gray-900">
          <input type="checkbox" name="enabled" defaultChecked={s.enabled} className="h-5 w-5" /> Émettre les reçus fiscaux
        </label>
        <fieldset className="space-y-4">
          <legend className="text-xl font-bold text-gray-900">Organisme bénéficiaire</legend>
          <Field name="legalName" label="Dénomination *" defaultValue={s.legalName} error={errors.legalName} maxLength={200} />
          <Field name="address" label="Adresse *" defaultValue={s.address} error={errors.address} maxLength={300} />
          <div className="grid gap-4 sm:grid-cols-2">
            <Field name="postalCode" label="Code postal *" defaultValue={s.postalCode} error={errors.postalCode} maxLength={12} />
            <Field name="city" label="Commune *" defaultValue={s.city} error={errors.city} maxLength={120} />
          </div>
          <Field name="registration" label="N° SIREN ou RNA *" defaultValue={s.registration} error={errors.registration} hint="9 chiffres (SIREN) ou W suivi de 9 chiffres (RNA)." maxLength={14} />
          <div>
            <label htmlFor="object" className="block text-sm font-medium text-gray-900">Objet *</label>
            <textarea id="object" name="object" rows={3} maxLength={500} defaultValue={s.object} aria-invalid={errors.object ? true : undefined} className={inputClass(Boolean(errors.object))} />
          </div>
          <div>
            <label htmlFor="legalBase" className="block text-sm font-medium text-gray-900">Qualité de l’organisme *</label>
            <select id="legalBase" name="legalBase" defaultValue={s.legalBase} aria-invalid={errors.legalBase ? true : undefined} className={inputClass(Boolean(errors.legalBase))}>
              <option value="">— Choisir —</option>
              {(Object.keys(LEGAL_BASES) as LegalBase[]).map((b) => <option key={b} value={b}>{LEGAL_BASES[b]}</option>)}
            </select>
          </div>
        </fieldset>
        <fieldset>
          <legend className="text-xl font-bold text-gray-900">Taux de réduction (particuliers)</legend>
          {(Object.keys(RATES) as Rate[]).map((r) => (
            <label key={r} className="flex min-h-11 items-center gap-2">
              <input type="radio" name="rate" value={r} defaultChecked={s.rate === r} className="h-4 w-4" /> {RATES[r]}
            </label>
          ))}
          <p className="text-sm text-gray-700">Les entreprises bénéficient de 60 % (article 238 bis du CGI), imprimé sur leurs reçus.</p>
        </fieldset>
        <fieldset>
          <legend className="text-xl font-bold text-gray-900">Dons mensuels</legend>
          {(Object.keys(MODELS) as ReceiptModel[]).map((m) => (
            <label key={m} className="flex min-h-11 items-center gap-2">
              <input type="radio" name="model" value={m} defaultChecked={s.model === m} className="h-4 w-4" /> {MODELS[m]}
            </label>
          ))}
          <p className="text-sm text-gray-700">Avec le reçu annuel, un don déjà couvert par un reçu n’est jamais compté deux fois ; le récapitulatif est émis en janvier ou à la demande depuis « Reçus ».</p>
          <label className="mt-2 inline-flex min-h-11 items-center gap-3 font-medium text-gray-900">
            <input type="checkbox" name="annualCountsImported" defaultChecked={s.annualCountsImported} aria-describedby="imported-help" className="h-5 w-5" /> Compter dans le reçu annuel les dons importés d’un autre outil
          </label>
          <p id="imported-help" className="text-sm text-gray-700">
            Décoché (par défaut), les dons importés (HelloAsso, GiveWP, tableur) ne figurent dans aucun reçu émis ici. Coché, le reçu annuel de l’année additionne aussi ceux qui n’avaient pas de numéro de reçu dans l’outil d’origine, lorsque le fichier donnait le nom et l’adresse complète du donateur. Un don importé avec son numéro de reçu n’est jamais repris.
          </p>
        </fieldset>
        <fieldset className="space-y-4">
          <legend className="text-xl font-bold text-gray-900">Signature et numérotation</legend>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field name="signatoryName" label="Nom du signataire *" defaultValue={s.signatoryName} error={errors.signatoryName} maxLength={120} />
            <Field name="signatoryTitle" label="Qualité du signataire *" defaultValue={s.signatoryTitle} error={errors.signatoryTitle} maxLength={120} />
          </div>
          <ImageField name="signatureImage" label="Image de la signature (facultatif)" defaultValue={s.signatureImage} error={errors.signatureImage} />
          <Field name="prefix" label="Préfixe des numéros" defaultValue={s.prefix} error={errors.prefix} hint="Ex. RF donne RF-2026-000001. Numérotation continue par année civile." maxLength={10} />
        </fieldset>
        <fieldset className="space-y-2">
          <legend className="text-xl font-bold text-gray-900">Impôt sur la fortune immobilière (IFI)</legend>
          <label className="inline-flex min-h-11 items-center gap-3 font-medium text-gray-900">
            <input type="checkbox" name="ifiEligible" defaultChecked={s.ifiEligible} aria-describedby="ifi-help" className="h-5 w-5" /> La fondation est éligible aux dons au titre de l’IFI
          </label>
          <p id="ifi-help" className="text-sm text-gray-700">
            Seuls certains organismes peuvent recevoir des dons ouvrant droit à la réduction d’IFI (article 978 du CGI) : notamment les fondations reconnues d’utilité publique,
            les fondations universitaires et partenariales, les établissements de recherche ou d’enseignement supérieur, les entreprises d’insertion et les associations
            intermédiaires, l’Agence nationale de la recherche. Une association reconnue d’utilité publique n’y est pas éligible. Cochez seulement si c’est le cas de la
            fondation : les particuliers peuvent alors choisir « Don au titre de l’IFI » sur le formulaire de don (et à la saisie d’un chèque ou d’un virement) ; leur reçu
            mentionne l’article 978 et la réduction de 75 % (dans la limite de 50 000 €), et ces dons sont comptés à part des dons ouvrant droit à la réduction d’impôt sur le revenu.
          </p>
        </fieldset>
        <button type="submit" className={primaryButton}>Enregistrer</button>
      </Form>
      <Form method="post" className="space-y-4 rounded-lg border border-gray-200 bg-white p-6 shadow-sm" noValidate>
        <h2 className="text-xl font-bold text-gray-900">Prochain numéro de la série {series.year}</h2>
        <p className="text-gray-700">
          Le prochain reçu portera le n° <strong data-testid="next-receipt-number">{series.nextNumber}</strong>. Si vos reçus de cette année ont déjà été numérotés ailleurs (ancien site, logiciel), indiquez le numéro qui suit le dernier émis : la numérotation ne peut qu’avancer.
        </p>
        <input type="hidden" name="intent" value="nextNumber" />
        <Field name="next" label="Prochain numéro" inputMode="numeric" defaultValue={String(series.next)} error={errors.next} hint={`Après le n° ${series.last} ; au plus 999 999.`} maxLength={9} />
        <button type="submit" className={primaryButton}>Fixer le prochain numéro</button>
      </Form>
    </div>
  );
}
