import { useI18n } from '~/lib/i18n';

/** "Recevoir des nouvelles de la fondation": unticked by default; recorded with its date when ticked. */
export function NewsletterConsent() {
  const { t } = useI18n();
  return (
    <label className="flex min-h-11 items-center gap-2">
      <input type="checkbox" name="newsletter" value="yes" className="h-4 w-4" /> {t('donorSpace.newsletterConsent')}
    </label>
  );
}
