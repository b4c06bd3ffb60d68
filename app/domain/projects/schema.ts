import { z } from 'zod';
import { flattenTranslations, isoDate, mediaUrl, perLanguage, requiredIn, requiredText, richText, translationsOf } from '~/domain/content/forms';
import type { Lang } from '~/lib/i18n';
import { DEFAULT_PROJECT_STATUS, PROJECT_STATUSES, type ProjectInput, type ProjectTranslation } from './projects';

/** The project form: image, date, location and a title in each language are required. */
export const projectSchema = z.object({
  image: mediaUrl("L'image est obligatoire."),
  date: isoDate('La date est obligatoire.'),
  location: requiredText('Le lieu est obligatoire.'),
  status: z.enum(PROJECT_STATUSES, { error: 'Choisissez un statut.' }).default(DEFAULT_PROJECT_STATUS),
  active: z
    .string()
    .optional()
    .transform((v) => v === 'on' || v === '1' || v === 'true'),
  ...perLanguage({ title: (lang) => requiredText(requiredIn('Le titre')(lang)), description: () => richText }),
});

export type ProjectForm = z.infer<typeof projectSchema>;
export const PROJECT_TEXT_KEYS = ['title', 'description'] as const;

/** The project a valid form describes. */
export function projectInputOf(form: ProjectForm): ProjectInput {
  return {
    image: form.image,
    date: form.date,
    location: form.location,
    status: form.status,
    active: form.active,
    translations: translationsOf(form, PROJECT_TEXT_KEYS) as Record<Lang, ProjectTranslation>,
  };
}

/** The form's values showing a project (saved, or its draft). */
export function projectFormValues(p: ProjectInput): Record<string, string> {
  return {
    image: p.image,
    date: p.date,
    location: p.location,
    status: p.status,
    active: p.active ? 'on' : '',
    ...flattenTranslations(p.translations as unknown as Record<Lang, Record<string, string>>, PROJECT_TEXT_KEYS),
  };
}
