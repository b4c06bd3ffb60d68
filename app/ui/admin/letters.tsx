import { LANGS, type Lang } from '~/lib/i18n';
import { SOURCE_LABELS, SUBSCRIBER_SOURCES } from '~/domain/subscribers/consent';
import { editorBody, LETTER_LIMITS, type LetterVersion, type LetterVersions } from '~/domain/letters/letter';
import { RichTextField } from './content';
import { choicesOf, Field, inputClass, SelectField } from './Field';

export const LANG_NAMES: Record<Lang, string> = { fr: 'Français', en: 'English', es: 'Español' };

/**
 * The letter form's fields (/admin/lettres/nouvelle and a draft's page): a version per language,
 * French required, and the audience. The text in the rich editor (ADR 039; without JavaScript, a
 * textarea of HTML or plain paragraphs); the other fields plain: it works without JavaScript.
 */
export function LetterFields({ versions, audience, errors, segments = [] }: { versions?: Partial<LetterVersions>; audience?: { language: string; source: string; segment?: string }; errors: Record<string, string>; segments?: { id: string; name: string }[] }) {
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
            <input type="hidden" name={`${l}.format`} value="html" />
            <RichTextField
              name={`${l}.body`}
              label="Texte"
              images
              defaultValue={editorBody(v as LetterVersion | undefined)}
              hint="Titres, gras, liens, listes et images de la médiathèque, comme les actualités ; le courriel en garde la mise en forme, et sa version texte les mêmes mots et liens."
              error={err('body')}
            />
            <Field name={`${l}.link`} id={`${l}-link`} label="Lien du bouton « Lire la suite » (facultatif)" defaultValue={v?.link ?? ''} maxLength={LETTER_LIMITS.link} hint="Un chemin du site (/blog/…) ou une adresse https://." error={err('link')} />
            <Field name={`${l}.image`} id={`${l}-image`} label="Image (facultatif)" defaultValue={v?.image ?? ''} maxLength={LETTER_LIMITS.image} hint="Adresse d’une image de la médiathèque (/media/…)." error={err('image')} />
          </fieldset>
        );
      })}
      {/* min-w-0: a fieldset is as wide as its widest content by default, here the segment's long first option. */}
      <fieldset className="grid min-w-0 gap-4 rounded-lg border border-gray-200 bg-white p-4 sm:grid-cols-2">
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
        <div className="min-w-0 sm:col-span-2">
          <SelectField
            name="audienceSegment"
            label="Segment de donateurs"
            {...choicesOf(segments)}
            empty="Aucun : tous les abonnés choisis ci-dessus"
            defaultValue={audience?.segment ?? ''}
            hint="Avec un segment, seules ses personnes dont une adresse est abonnée aux nouvelles la reçoivent (le segment est calculé au moment de l’envoi)."
            error={errors.audienceSegment}
          />
        </div>
      </fieldset>
    </>
  );
}
