import { z } from 'zod';
import { isoDate, mediaUrl, perLanguage, requiredIn, requiredText, richText } from '~/domain/content/forms';
import { POST_STATUSES } from './posts';

/** The blog form: cover, author, date, and category, title and excerpt in each language, are required. */
export const postSchema = z.object({
  image: mediaUrl("L'image de couverture est obligatoire."),
  author: requiredText("L'auteur est obligatoire."),
  date: isoDate('La date est obligatoire.'),
  status: z.enum(POST_STATUSES, { error: 'Choisissez un statut.' }).default('Brouillon'),
  ...perLanguage({
    category: (lang) => requiredText(requiredIn('La catégorie')(lang)),
    title: (lang) => requiredText(requiredIn('Le titre')(lang)),
    excerpt: (lang) => requiredText(requiredIn("L'extrait")(lang), 1000),
    content: () => richText,
  }),
});

export const POST_TEXT_KEYS = ['category', 'title', 'excerpt', 'content'] as const;
