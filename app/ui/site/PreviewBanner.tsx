import { useI18n } from '~/lib/i18n';

/** Says clearly, in the visitor's language, that the page shows a draft (ADR 015). */
export function PreviewBanner({ className = '' }: { className?: string }) {
  const { t } = useI18n();
  return (
    <p role="note" data-testid="preview-banner" className={`rounded-lg border-2 border-amber-600 bg-amber-50 px-4 py-3 font-semibold text-amber-900 ${className}`}>
      {t('editorial.previewBanner')}
    </p>
  );
}
