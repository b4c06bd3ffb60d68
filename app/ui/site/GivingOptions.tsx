import { DEDICATION_MESSAGE_MAX, DEDICATION_NAME_MAX, feeFigures } from '~/domain/campaigns/giving';
import { useI18n } from '~/lib/i18n';
import { numberFormat } from '~/lib/intl';

/**
 * The donate form's options that raise more (ADR 014): the campaign the gift goes to, the fees
 * the donor may cover, a dedication. One fieldset group of its own, shared by the method's forms,
 * each offering what its method can carry (METHOD_RULES, app/domain/giving/form.ts); everything
 * is posted and checked on the server. The fee line is true without a script (the figures of the amount the page knows,
 * else the percentage); `app/enhance/fees.ts` keeps it so as the amount changes.
 */
export interface GivingOptionsProps {
  idPrefix: string;
  campaigns: { slug: string; title: string }[];
  /** The campaign chosen (from ?campagne= or the posted form). */
  campaign: string;
  /** 0: the method does not offer to cover fees. */
  feePercent: number;
  /** Whether the method carries a dedication. */
  dedication?: boolean;
  /** The gift amount known when the page is rendered (a preset checked, an amount typed), for the fee line. */
  knownCents: number | null;
  values: Partial<Record<'coverFees' | 'dedicationKind' | 'dedicationName' | 'dedicationMessage' | 'dedicationEmail', string>>;
  inputClassName: string;
}

/** "Affectation du don": where the gift goes (no choice to make when no campaign is open). */
export function CampaignChoice({ idPrefix, campaigns, campaign, inputClassName }: Pick<GivingOptionsProps, 'idPrefix' | 'campaigns' | 'campaign' | 'inputClassName'>) {
  const { t } = useI18n();
  if (campaigns.length === 0) return null;
  return (
    <div>
      <label htmlFor={`${idPrefix}-campaign`} className="block font-medium">
        {t('giving.designation')}
      </label>
      <select id={`${idPrefix}-campaign`} name="campaign" defaultValue={campaign} className={inputClassName}>
        <option value="">{t('giving.general')}</option>
        {campaigns.map((c) => (
          <option key={c.slug} value={c.slug}>
            {c.title}
          </option>
        ))}
      </select>
    </div>
  );
}

/** "J'ajoute x % pour couvrir les frais" and the amount it adds (what startGift charges). */
function CoverFees({ idPrefix, feePercent, knownCents, checked }: { idPrefix: string; feePercent: number; knownCents: number | null; checked: boolean }) {
  const { t, lang } = useI18n();
  const percent = numberFormat(lang).format(feePercent);
  const share = t('giving.coverFeesShare', { percent });
  const figures = feeFigures(knownCents, feePercent, lang);
  return (
    <div>
      <label className="inline-flex min-h-11 items-center gap-2">
        <input type="checkbox" name="coverFees" defaultChecked={checked} className="h-4 w-4" aria-describedby={`${idPrefix}-fee-amount`} />
        {t('giving.coverFees', { percent })}
      </label>
      <p id={`${idPrefix}-fee-amount`} className="text-sm text-gray-700" aria-live="polite" data-fee-amount data-fee-percent={feePercent} data-template={t('giving.coverFeesAmount')} data-share={share}>
        {figures ? t('giving.coverFeesAmount', figures) : share}
      </p>
    </div>
  );
}

export function GivingOptions({ idPrefix, campaigns, campaign, feePercent, dedication = true, knownCents, values, inputClassName }: GivingOptionsProps) {
  const { t } = useI18n();
  const id = (s: string) => `${idPrefix}-${s}`;
  const kind = values.dedicationKind ?? '';
  return (
    <div className="space-y-5" data-giving>
      <CampaignChoice idPrefix={idPrefix} campaigns={campaigns} campaign={campaign} inputClassName={inputClassName} />
      {feePercent > 0 && <CoverFees idPrefix={idPrefix} feePercent={feePercent} knownCents={knownCents} checked={values.coverFees === 'on'} />}
      {dedication && (
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
      )}
    </div>
  );
}
