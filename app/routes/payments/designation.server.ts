import type { GiftDetails } from '~/domain/donations/ledger.server';
import type { Lang, MessageKey } from '~/lib/i18n';
import { readGift } from '~/routes/site/giving.server';

/**
 * The campaign a PayPal or mobile money gift is designated to (posted by the donate script),
 * checked like the forms'. A refusal names its message and the campaign's title in `lang`, which
 * the script shows as the form would.
 */
export async function designationOf(campaign: string | undefined, lang: Lang): Promise<GiftDetails | { error: MessageKey; vars: Record<string, string> }> {
  const choice = await readGift({ campaign: (campaign ?? '').slice(0, 100), coverFees: '', dedicationKind: '', dedicationName: '', dedicationMessage: '', dedicationEmail: '' }, lang);
  return choice.ok ? choice.details : { error: choice.error, vars: choice.vars };
}
