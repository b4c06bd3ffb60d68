import type { ReactNode } from 'react';
import type { GivingSettings, SecretField as SecretFieldName } from '~/domain/donations/providers/settings';
import { Field, inputClass, primaryButton } from '~/ui/admin/Field';

/** The payment settings screen's pieces (app/routes/payments/admin-settings.tsx). */

function Switch({ name, label, context, checked, onChange }: { name: string; label: string; context?: string; checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <label className="inline-flex cursor-pointer items-center gap-3">
      <input type="checkbox" role="switch" name={name} checked={checked} onChange={(e) => onChange(e.target.checked)} className="peer sr-only" />
      <span aria-hidden="true" className="relative h-6 w-11 rounded-full bg-gray-400 transition-colors peer-checked:bg-green-700 peer-focus-visible:outline peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-700 after:absolute after:top-0.5 after:left-0.5 after:h-5 after:w-5 after:rounded-full after:bg-white after:transition-transform peer-checked:after:translate-x-5" />
      <span className="font-medium text-gray-900">
        {context && <span className="sr-only">{context} : </span>}
        {label}
      </span>
    </label>
  );
}

export function Section({ id, title, enabled, setEnabled, children, hint }: { id: string; title: string; enabled: boolean; setEnabled: (v: boolean) => void; children: ReactNode; hint?: ReactNode }) {
  return (
    <section aria-labelledby={`${id}-title`} className="rounded-lg border border-gray-200 bg-white p-6 shadow-sm">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h2 id={`${id}-title`} className="text-xl font-bold text-gray-900">
          {title}
        </h2>
        <Switch name={`${id}.enabled`} label={enabled ? 'Activé' : 'Désactivé'} context={title} checked={enabled} onChange={setEnabled} />
      </div>
      {hint && <p className="mt-2 text-sm text-gray-700">{hint}</p>}
      <fieldset disabled={!enabled} className="mt-4 space-y-4 disabled:opacity-60">
        <legend className="sr-only">{title}</legend>
        {children}
      </fieldset>
    </section>
  );
}

/** A write-only secret: shows whether one is saved, never its value; typing replaces it. */
export function SecretField({ field, label, isSet, error, hint }: { field: SecretFieldName; label: string; isSet: boolean; error?: string; hint?: string }) {
  const id = `secret-${field.replace('.', '-')}`;
  return (
    <div>
      <Field
        id={id}
        name={`secret.${field}`}
        label={label}
        type="password"
        autoComplete="off"
        maxLength={500}
        placeholder={isSet ? '••••••••' : ''}
        error={error}
        hint={`${isSet ? 'Défini (masqué). Laissez vide pour conserver la valeur enregistrée, ou saisissez-en une nouvelle pour la remplacer.' : 'Non défini.'} Confidentiel : jamais renvoyé au navigateur, chiffré en base.${hint ? ` ${hint}` : ''}`}
      />
      {isSet && (
        <label className="mt-2 inline-flex items-center gap-2 text-sm text-gray-800">
          <input type="checkbox" name={`clear.${field}`} className="h-4 w-4" /> Effacer la valeur enregistrée
        </label>
      )}
    </div>
  );
}

export function ModeSelect({ name, value, error }: { name: string; value: 'sandbox' | 'live'; error?: string }) {
  return (
    <div>
      <label htmlFor={name} className="block text-sm font-medium text-gray-900">
        Environnement
      </label>
      <select id={name} name={name} defaultValue={value} className={inputClass(Boolean(error))}>
        <option value="sandbox">Bac à sable (test)</option>
        <option value="live">Production (live)</option>
      </select>
    </div>
  );
}

export const SaveButton = () => (
  <button type="submit" className={primaryButton}>
    Sauvegarder
  </button>
);

/** Campaigns (#16): the fee option of the donate form, and the card checkout's options (`children`: the provider's section). */
export function GivingSection({ giving, errors, children }: { giving: GivingSettings | undefined; errors: Record<string, string>; children?: ReactNode }) {
  return (
    <section aria-labelledby="giving-title" className="rounded-lg border border-gray-200 bg-white p-6 shadow-sm">
      <h2 id="giving-title" className="text-xl font-bold text-gray-900">
        Formulaire de don
      </h2>
      <div className="mt-4 space-y-4">
        <Field
          name="giving.feePercent"
          label="Frais couverts par le donateur (%)"
          inputMode="decimal"
          defaultValue={giving?.feePercent ?? ''}
          error={errors['giving.feePercent']}
          hint="Le donateur peut ajouter ce pourcentage à son don pour couvrir les frais de paiement. Laissez vide pour ne pas le proposer."
        />
        {children}
      </div>
    </section>
  );
}
