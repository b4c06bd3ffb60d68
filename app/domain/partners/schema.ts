import { z } from 'zod';
import { httpUrl, mediaUrl, requiredText } from '~/domain/content/forms';

/** The partner form: name, logo and website are all required. */
export const partnerSchema = z.object({
  name: requiredText('Le nom est obligatoire.', 150),
  logoUrl: mediaUrl('Le logo est obligatoire.'),
  website: httpUrl('Le site web est obligatoire.'),
});

export type PartnerInput = z.infer<typeof partnerSchema>;
