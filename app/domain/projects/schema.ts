import { z } from 'zod';
import { isoDate, mediaUrl, perLanguage, requiredIn, requiredText, richText } from '~/domain/content/forms';
import { DEFAULT_PROJECT_STATUS, PROJECT_STATUSES } from './projects';

/** The project form (SPEC.md sections 3 and 5): image, date, location and a title in each language are required. */
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
