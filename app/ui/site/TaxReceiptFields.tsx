import { fieldName, FIELD_LABEL, type TaxField, type TaxFieldError } from '~/domain/receipts/donor-details';
import { useI18n } from '~/lib/i18n';

const inputCls = (invalid: boolean) => `mt-1 block w-full rounded-md border px-3 py-2.5 text-base ${invalid ? 'border-red-700' : 'border-gray-400'}`;

const TEXT_FIELDS: { field: Exclude<TaxField, 'kind'>; autoComplete: string; maxLength: number; company?: boolean; inputMode?: 'numeric' }[] = [
  { field: 'name', autoComplete: 'name', maxLength: 120 },
  { field: 'company', autoComplete: 'organization', maxLength: 160, company: true },
  { field: 'legalForm', autoComplete: 'off', maxLength: 60, company: true },
  { field: 'siren', autoComplete: 'off', maxLength: 11, company: true, inputMode: 'numeric' },
  { field: 'address', autoComplete: 'street-address', maxLength: 200 },
  { field: 'postalCode', autoComplete: 'postal-code', maxLength: 12 },
  { field: 'city', autoComplete: 'address-level2', maxLength: 120 },
  { field: 'country', autoComplete: 'country-name', maxLength: 80 },
];

/**
 * The donate form's "Reçu fiscal" fieldset (every payment method): who the receipt is made out to.
 * Server-rendered, works without JavaScript; the server validates it (domain/receipts).
 */
export function TaxReceiptFields({ prefix, values, errors, ifi = false }: { prefix: string; values?: Record<string, string>; errors?: TaxFieldError[]; ifi?: boolean }) {
  const { t } = useI18n();
  const errorOf = (f: TaxField) => errors?.find((e) => e.field === f);
  const id = (f: string) => `${prefix}-tax-${f}`;
  const company = values?.kind === 'company';
  return (
    <fieldset className="space-y-4 rounded-lg border border-gray-300 p-4" data-tax-fields>
      <legend className="px-1 font-semibold">{t('taxReceipt.legend')}</legend>
      <p className="text-sm text-gray-700">{t('taxReceipt.intro')}</p>
      {errors && errors.length > 0 && (
        <div role="alert" id={id('errors')} className="rounded-md border border-red-200 bg-red-50 p-3 text-red-900">
          <p className="font-medium">{t('taxReceipt.errorsTitle')}</p>
          <ul className="mt-1 list-disc pl-5">
            {errors.map((e) => (
              <li key={e.field}>
                <a href={`#${id(e.field)}`} className="underline">
                  {t(e.key, { field: t(FIELD_LABEL[e.field]) })}
                </a>
              </li>
            ))}
          </ul>
        </div>
      )}
      <label className="inline-flex min-h-11 items-center gap-2">
        <input type="checkbox" name={fieldName('optOut')} defaultChecked={values?.optOut === 'on'} className="h-4 w-4" /> {t('taxReceipt.optOut')}
      </label>
      <fieldset>
        <legend className="font-medium" id={id('kind')}>{t('taxReceipt.kind')}</legend>
        <div className="mt-1 flex flex-wrap gap-4">
          <label className="inline-flex min-h-11 items-center gap-2">
            <input type="radio" name={fieldName('kind')} value="individual" defaultChecked={!company} className="h-4 w-4" /> {t('taxReceipt.individual')}
          </label>
          <label className="inline-flex min-h-11 items-center gap-2">
            <input type="radio" name={fieldName('kind')} value="company" defaultChecked={company} className="h-4 w-4" /> {t('taxReceipt.company')}
          </label>
        </div>
      </fieldset>
      {ifi && (
        <div>
          <label className="inline-flex min-h-11 items-center gap-2">
            <input type="checkbox" name={fieldName('ifi')} defaultChecked={values?.ifi === 'on'} aria-describedby={id('ifi-hint')} className="h-4 w-4" /> {t('taxReceipt.ifi')}
          </label>
          <p id={id('ifi-hint')} className="text-sm text-gray-700">{t('taxReceipt.ifiHint')}</p>
        </div>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        {TEXT_FIELDS.map((f) => {
          const err = errorOf(f.field);
          return (
            <div key={f.field} className={f.field === 'address' ? 'sm:col-span-2' : undefined}>
              <label htmlFor={id(f.field)} className="block font-medium">
                {t(FIELD_LABEL[f.field])}
                {f.company && <span className="font-normal text-gray-700"> ({t('taxReceipt.company')})</span>}
              </label>
              <input
                id={id(f.field)}
                name={fieldName(f.field)}
                autoComplete={f.autoComplete}
                inputMode={f.inputMode}
                maxLength={f.maxLength}
                defaultValue={values?.[f.field] ?? (f.field === 'country' ? 'France' : '')}
                aria-invalid={err ? true : undefined}
                aria-describedby={err ? id('errors') : undefined}
                className={inputCls(Boolean(err))}
              />
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}
