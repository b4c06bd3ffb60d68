import type { JoinErrors, JoinField, JoinMethod } from '~/domain/membership/join-form';
import { formatMoney } from '~/lib/currency';
import { choiceLabel } from '~/domain/means/means';
import { useI18n, type MessageKey } from '~/lib/i18n';
import { buttonClass } from '~/ui/primitives/ButtonLink';
import { useSitePath } from '~/ui/primitives/links';

/**
 * The joining form of /devenir-membre (ADR 021): a plain POST form (works without JavaScript),
 * every field labelled, each error beside its field and named by the field (aria-describedby).
 */
export interface JoinFormType {
  id: string;
  name: string;
  description: string;
  duesCents: number;
  taxDeductible: boolean;
}

const inputCls = (invalid: boolean) => `mt-1 block w-full rounded-md border px-3 py-2.5 text-base ${invalid ? 'border-red-700' : 'border-gray-400'}`;
/** The joining form's choices: each means in the joining form's words (the means table), and "je paie autrement". */
export const METHOD_LABEL: Record<JoinMethod, MessageKey> = {
  card: choiceLabel('card', 'join'),
  paypal: choiceLabel('paypal', 'join'),
  mobileMoney: choiceLabel('mobileMoney', 'join'),
  crypto: choiceLabel('crypto', 'join'),
  other: 'join.methodOther',
};

function FieldError({ field, errors }: { field: JoinField; errors: JoinErrors }) {
  const { t } = useI18n();
  const key = errors[field];
  return key ? (
    <p id={`join-${field}-error`} className="mt-1 text-sm font-medium text-red-800">
      {t(key)}
    </p>
  ) : null;
}

function TextField({ field, label, type = 'text', autoComplete, required = true, max, values, errors }: { field: JoinField; label: MessageKey; type?: string; autoComplete: string; required?: boolean; max: number; values: Record<string, string>; errors: JoinErrors }) {
  const { t } = useI18n();
  const invalid = Boolean(errors[field]);
  return (
    <div>
      <label htmlFor={`join-${field}`} className="block font-medium">
        {t(label)}
      </label>
      <input
        id={`join-${field}`}
        name={field}
        type={type}
        autoComplete={autoComplete}
        required={required}
        maxLength={max}
        defaultValue={values[field] ?? ''}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? `join-${field}-error` : undefined}
        className={inputCls(invalid)}
      />
      <FieldError field={field} errors={errors} />
    </div>
  );
}

export function JoinForm({ types, methods, statutesUrl, values, errors, formError }: { types: JoinFormType[]; methods: JoinMethod[]; statutesUrl: string; values: Record<string, string>; errors: JoinErrors; formError: MessageKey | null }) {
  const { t, lang } = useI18n();
  const sitePath = useSitePath();
  const hasErrors = Object.keys(errors).length > 0;
  const field = { values, errors };
  const chosenType = values.type_id ?? (types.length === 1 ? types[0].id : '');
  const chosenMethod = values.method ?? methods[0];
  return (
    <form method="post" action={sitePath('/devenir-membre')} className="mt-6 space-y-6" noValidate>
      <input type="hidden" name="intent" value="join" />
      {(hasErrors || formError) && (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 font-medium text-red-900">
          {t(formError ?? 'join.errorsTitle')}
        </p>
      )}
      <fieldset className="space-y-4">
        <legend className="text-lg font-semibold">{t('join.identity')}</legend>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField field="first_name" label="join.firstName" autoComplete="given-name" max={80} {...field} />
          <TextField field="last_name" label="join.lastName" autoComplete="family-name" max={80} {...field} />
          <TextField field="email" label="join.email" type="email" autoComplete="email" max={254} {...field} />
          <TextField field="phone" label="join.phone" type="tel" autoComplete="tel" required={false} max={30} {...field} />
        </div>
        <TextField field="address" label="join.address" autoComplete="street-address" max={200} {...field} />
        <div className="grid gap-4 sm:grid-cols-3">
          <TextField field="postal_code" label="join.postalCode" autoComplete="postal-code" max={12} {...field} />
          <TextField field="city" label="join.city" autoComplete="address-level2" max={80} {...field} />
          <TextField field="country" label="join.country" autoComplete="country-name" max={80} {...field} />
        </div>
      </fieldset>
      <fieldset aria-describedby={errors.type_id ? 'join-type_id-error' : undefined}>
        <legend className="text-lg font-semibold">{t('join.typeLegend')}</legend>
        <div className="mt-2 space-y-2">
          {types.map((type) => (
            <label key={type.id} className="flex cursor-pointer gap-3 rounded-md border border-gray-400 p-3 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50">
              <input type="radio" name="type_id" value={type.id} defaultChecked={chosenType === type.id} required className="mt-1 h-4 w-4 shrink-0" />
              <span className="min-w-0 wrap-anywhere">
                <span className="font-semibold">{type.name}</span> — {t('join.perYear', { amount: formatMoney(type.duesCents, 'EUR', lang) })}
                {type.description && <span className="block text-sm text-gray-700">{type.description}</span>}
                {type.taxDeductible && <span className="block text-sm text-gray-700">{t('join.deductible')}</span>}
              </span>
            </label>
          ))}
        </div>
        <FieldError field="type_id" errors={errors} />
      </fieldset>
      <MethodChoice name="method" methods={methods} chosen={chosenMethod} errors={errors} labels={METHOD_LABEL} />
      <div className="space-y-3">
        <div>
          <label className="flex min-h-11 items-start gap-2">
            <input type="checkbox" name="statutes" value="on" defaultChecked={values.statutes === 'on'} required aria-invalid={errors.statutes ? true : undefined} aria-describedby={errors.statutes ? 'join-statutes-error' : undefined} className="mt-1 h-4 w-4 shrink-0" />
            <span>{t('join.statutesConsent')}</span>
          </label>
          {statutesUrl && (
            <a href={statutesUrl} target="_blank" rel="noopener noreferrer" className="ml-6 text-brand-800 underline">
              {t('join.statutesLink')}
            </a>
          )}
          <FieldError field="statutes" errors={errors} />
        </div>
        <div>
          <label className="flex min-h-11 items-start gap-2">
            <input type="checkbox" name="privacy" value="on" defaultChecked={values.privacy === 'on'} required aria-invalid={errors.privacy ? true : undefined} aria-describedby={errors.privacy ? 'join-privacy-error' : undefined} className="mt-1 h-4 w-4 shrink-0" />
            <span>{t('join.privacyConsent')}</span>
          </label>
          <a href={sitePath('/confidentialite')} className="ml-6 text-brand-800 underline">
            {t('join.privacyLink')}
          </a>
          <FieldError field="privacy" errors={errors} />
        </div>
        <label className="flex min-h-11 items-start gap-2">
          <input type="checkbox" name="news" value="on" defaultChecked={values.news === 'on'} className="mt-1 h-4 w-4 shrink-0" />
          <span>{t('join.newsConsent')}</span>
        </label>
      </div>
      <button type="submit" className={buttonClass('primary')}>
        {t('join.submit')}
      </button>
    </form>
  );
}

/** The payment methods, as radio buttons (the joining form and the renewal form). */
export function MethodChoice({ name, methods, chosen, errors, labels }: { name: string; methods: JoinMethod[]; chosen: string; errors: JoinErrors; labels: Record<JoinMethod, MessageKey> }) {
  const { t } = useI18n();
  return (
    <fieldset aria-describedby={errors.method ? 'join-method-error' : undefined}>
      <legend className="text-lg font-semibold">{t('join.methodLegend')}</legend>
      <div className="mt-2 space-y-1">
        {methods.map((m) => (
          <label key={m} className="flex min-h-11 items-center gap-2">
            <input type="radio" name={name} value={m} defaultChecked={chosen === m} className="h-4 w-4 shrink-0" /> {t(labels[m])}
          </label>
        ))}
      </div>
      {methods.includes('other') && <p className="mt-1 text-sm text-gray-700">{t('join.methodOtherHint')}</p>}
      <FieldError field="method" errors={errors} />
    </fieldset>
  );
}
