import { LANGS, type Lang } from '~/lib/i18n';
import { SOURCE_LABELS, SUBSCRIBER_SOURCES } from '~/domain/subscribers/consent';
import { LETTER_LIMITS, type LetterVersions } from '~/domain/letters/letter';
import { Field, inputClass } from './Field';

export const LANG_NAMES: Record<Lang, string> = { fr: 'Français', en: 'English', es: 'Español' };

/**
 * The letter form's fields (/admin/lettres/nouvelle and a draft's page): a version per language,
 * French required, and the audience. Plain form fields: it works without JavaScript.
 */
export function LetterFields({ versions, audience, errors }: { versions?: Partial<LetterVersions>; audience?: { language: string; source: string }; errors: Record<string, string> }) {
  return (
    <>
      {LANGS.map((l) => {
        const v = versions?.[l];
        const err = (f: string) => errors[`${l}.${f}`];
        return (
          <fieldset key={l} className="space-y-4 rounded-lg border border-gray-200 bg-white p-4">
            <legend className="px-1 font-semibold text-gray-900">
              {LANG_NAMES[l]} {l === 'fr' ? '(obligatoire)' : '(facultatif : sans objet, ses lecteurs reçoivent la version française)'}
            </legend>
            <Field name={`${l}.subject`} id={`${l}-subject`} label="Objet" defaultValue={v?.subject ?? ''} maxLength={LETTER_LIMITS.subject} required={l === 'fr'} error={err('subject')} />
            <div>
              <label htmlFor={`${l}-body`} className="block text-sm font-medium text-gray-900">
                Texte
              </label>
              <textarea
                id={`${l}-body`}
                name={`${l}.body`}
                rows={8}
                defaultValue={v?.body ?? ''}
                maxLength={LETTER_LIMITS.body}
                required={l === 'fr'}
                aria-describedby={`${l}-body-hint${err('body') ? ` ${l}-body-error` : ''}`}
                aria-invalid={err('body') ? true : undefined}
                className={inputClass(Boolean(err('body')))}
              />
              <p id={`${l}-body-hint`} className="mt-1 text-sm text-gray-600">
                Texte simple ; une ligne vide sépare deux paragraphes.
              </p>
              {err('body') && (
                <p id={`${l}-body-error`} className="mt-1 text-sm text-red-800">
                  {err('body')}
                </p>
              )}
            </div>
            <Field name={`${l}.link`} id={`${l}-link`} label="Lien du bouton « Lire la suite » (facultatif)" defaultValue={v?.link ?? ''} maxLength={LETTER_LIMITS.link} hint="Un chemin du site (/blog/…) ou une adresse https://." error={err('link')} />
            <Field name={`${l}.image`} id={`${l}-image`} label="Image (facultatif)" defaultValue={v?.image ?? ''} maxLength={LETTER_LIMITS.image} hint="Adresse d’une image de la médiathèque (/media/…)." error={err('image')} />
          </fieldset>
        );
      })}
      <fieldset className="grid gap-4 rounded-lg border border-gray-200 bg-white p-4 sm:grid-cols-2">
        <legend className="px-1 font-semibold text-gray-900">Destinataires : les abonnés confirmés</legend>
        <div>
          <label htmlFor="audienceLanguage" className="block text-sm font-medium text-gray-900">
            Langue
          </label>
          <select id="audienceLanguage" name="audienceLanguage" defaultValue={audience?.language ?? ''} className={inputClass(false)}>
            <option value="">Toutes les langues</option>
            {LANGS.map((l) => (
              <option key={l} value={l}>
                {LANG_NAMES[l]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="audienceSource" className="block text-sm font-medium text-gray-900">
            Origine
          </label>
          <select id="audienceSource" name="audienceSource" defaultValue={audience?.source ?? ''} className={inputClass(false)}>
            <option value="">Toutes les origines</option>
            {SUBSCRIBER_SOURCES.map((s) => (
              <option key={s} value={s}>
                {SOURCE_LABELS[s]}
              </option>
            ))}
          </select>
        </div>
      </fieldset>
    </>
  );
}
