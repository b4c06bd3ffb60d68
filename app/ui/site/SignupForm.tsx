import { SIGNUP_LIMITS } from '~/domain/subscribers/consent';
import { sitePath, useI18n } from '~/lib/i18n';
import { buttonClass } from '~/ui/primitives/ButtonLink';

/**
 * The news sign-up form (footer, /blog, and its own page): an address, the page's language, the
 * consent sentence (its version is recorded by the action). A plain form: it works before any JavaScript.
 */
export function SignupForm({ id, from, dark = false, email = '', error }: { id: string; from: string; dark?: boolean; email?: string; error?: string }) {
  const { t, lang } = useI18n();
  const inputId = `${id}-email`;
  return (
    <form method="post" action={sitePath(lang, '/lettre/inscription')} data-busy-label={t('newsletter.sending')} className="mt-3 space-y-3">
      <input type="hidden" name="lang" value={lang} />
      <input type="hidden" name="from" value={from} />
      <label htmlFor={inputId} className={`block text-sm font-medium ${dark ? 'text-white' : ''}`}>
        {t('newsletter.email')}
      </label>
      <div className="flex flex-wrap gap-2">
        <input
          id={inputId}
          name="email"
          type="email"
          autoComplete="email"
          required
          maxLength={SIGNUP_LIMITS.email}
          defaultValue={email}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-consent${error ? ` ${id}-error` : ''}`}
          className="min-w-0 flex-1 rounded-md border border-gray-400 bg-white px-3 py-2.5 text-base text-gray-900"
        />
        <button type="submit" className={buttonClass('primary')}>
          {t('newsletter.submit')}
        </button>
      </div>
      {error && (
        <p id={`${id}-error`} className={`text-sm ${dark ? 'text-red-200' : 'text-red-800'}`}>
          {error}
        </p>
      )}
      <p id={`${id}-consent`} className={`text-xs leading-5 ${dark ? 'text-gray-300' : 'text-gray-700'}`}>
        {t('newsletter.consent')}
      </p>
    </form>
  );
}
