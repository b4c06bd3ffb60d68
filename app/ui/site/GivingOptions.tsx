import { coverFeesCents, DEDICATION_MESSAGE_MAX, DEDICATION_NAME_MAX } from '~/domain/campaigns/giving';
import { formatMoney } from '~/domain/donations/money';
import { useI18n } from '~/lib/i18n';
import { numberFormat } from '~/lib/intl';

/**
 * The donate form's options that raise more (ADR 014): the campaign the gift goes to, the fees
 * the donor may cover, a dedication. One fieldset group of its own, shared by the card and crypto
 * forms; everything is posted and checked on the server, no script needed.
 */
export interface GivingOptionsProps {
  idPrefix: string;
  campaigns: { slug: string; title: string }[];
  /** The campaign chosen (from ?campagne= or the posted form). */
  campaign: string;
  feePercent: number;
  /** The gift amount known when the page is rendered (a preset checked, an amount typed), for the fee line. */
  knownCents: number | null;
  values: Partial<Record<'coverFees' | 'dedicationKind' | 'dedicationName' | 'dedicationMessage' | 'dedicationEmail', string>>;
  inputClassName: string;
}

export function GivingOptions({ idPrefix, campaigns, campaign, feePercent, knownCents, values, inputClassName }: GivingOptionsProps) {
  const { t, lang } = useI18n();
  const id = (s: string) => `${idPrefix}-${s}`;
  const kind = values.dedicationKind ?? '';
  const fee = knownCents ? coverFeesCents(knownCents, feePercent) : 0;
  return (
    <div className="space-y-5" data-giving>
      {campaigns.length > 0 && (
        <div>
          <label htmlFor={id('campaign')} className="block font-medium">
            {t('giving.designation')}
          </label>
          <select id={id('campaign')} name="campaign" defaultValue={campaign} className={inputClassName}>
            <option value="">{t('giving.general')}</option>
            {campaigns.map((c) => (
              <option key={c.slug} value={c.slug}>
                {c.title}
              </option>
            ))}
          </select>
        </div>
      )}
      {feePercent > 0 && (
        <div>
          <label className="inline-flex min-h-11 items-center gap-2">
            <input type="checkbox" name="coverFees" defaultChecked={values.coverFees === 'on'} className="h-4 w-4" data-fee-percent={feePercent} aria-describedby={id('fee-amount')} />
            {t('giving.coverFees', { percent: numberFormat(lang).format(feePercent) })}
          </label>
          <p id={id('fee-amount')} className="text-sm text-gray-700" data-fee-amount aria-live="polite">
            {fee > 0 ? t('giving.coverFeesAmount', { fee: formatMoney(fee, 'EUR', lang), total: formatMoney((knownCents ?? 0) + fee, 'EUR', lang) }) : ''}
          </p>
        </div>
      )}
      <fieldset className="space-y-3">
        <legend className="font-semibold">{t('giving.dedicate')}</legend>
        <div className="flex flex-wrap gap-4">
          {(
            [
              ['', 'giving.none'],
              ['honor', 'giving.honor'],
              ['memory', 'giving.memory'],
            ] as const
          ).map(([v, label]) => (
            <label key={v} className="inline-flex min-h-11 items-center gap-2">
              <input type="radio" name="dedicationKind" value={v} defaultChecked={kind === v} className="h-4 w-4" /> {t(label)}
            </label>
          ))}
        </div>
        <div>
          <label htmlFor={id('dedication-name')} className="block font-medium">
            {t('giving.name')}
          </label>
          <input id={id('dedication-name')} name="dedicationName" autoComplete="off" maxLength={DEDICATION_NAME_MAX} defaultValue={values.dedicationName ?? ''} className={inputClassName} />
        </div>
        <div>
          <label htmlFor={id('dedication-message')} className="block font-medium">
            {t('giving.message')}
          </label>
          <textarea id={id('dedication-message')} name="dedicationMessage" rows={3} maxLength={DEDICATION_MESSAGE_MAX} defaultValue={values.dedicationMessage ?? ''} className={inputClassName} />
        </div>
        <div>
          <label htmlFor={id('dedication-email')} className="block font-medium">
            {t('giving.email')}
          </label>
          <input id={id('dedication-email')} name="dedicationEmail" type="email" autoComplete="off" maxLength={254} defaultValue={values.dedicationEmail ?? ''} className={inputClassName} />
        </div>
      </fieldset>
    </div>
  );
}
