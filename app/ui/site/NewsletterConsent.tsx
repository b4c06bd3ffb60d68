import { NEWSLETTER_FIELD, NEWSLETTER_TICKED } from '~/domain/donors/consent';
import { useI18n } from '~/lib/i18n';

/**
 * "Recevoir des nouvelles de la fondation": unticked by default; recorded with its date when ticked
 * (every method's form). `checked`: ticked again when the form came back with an error.
 */
export function NewsletterConsent({ checked = false }: { checked?: boolean }) {
  const { t } = useI18n();
  return (
    <label className="flex min-h-11 items-center gap-2">
      <input type="checkbox" name={NEWSLETTER_FIELD} value={NEWSLETTER_TICKED} defaultChecked={checked} className="h-4 w-4" /> {t('donorSpace.newsletterConsent')}
    </label>
  );
}
