import { z } from 'zod';

/** Social networks shown in the footer, in order; the key is the lowercase network name. */
export const SOCIAL_NETWORKS = [
  { key: 'facebook', label: 'Facebook' },
  { key: 'twitter', label: 'X (Twitter)' },
  { key: 'linkedin', label: 'LinkedIn' },
  { key: 'youtube', label: 'YouTube' },
] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number]['key'];

const httpUrlOrEmpty = z
  .string()
  .trim()
  .max(2000)
  .refine((v) => v === '' || /^https?:\/\/[^\s]+$/i.test(v), { message: 'Saisissez une adresse commençant par http:// ou https://, ou laissez vide.' });
const urlOrPath = z
  .string()
  .trim()
  .max(2000)
  .refine((v) => v === '' || /^(https?:\/\/|\/)[^\s]*$/i.test(v), { message: 'Saisissez une adresse http(s) ou un chemin de la médiathèque (/media/…), ou laissez vide.' });

export const siteSettingsSchema = z.object({
  siteLogoUrl: urlOrPath,
  logoUrl: urlOrPath,
  contactEmail: z
    .string()
    .trim()
    .max(254, { message: "L'email ne peut pas dépasser 254 caractères." })
    .refine((v) => v === '' || z.email().safeParse(v).success, { message: "L'email n'est pas valide." }),
  phone: z.string().trim().max(40, { message: 'Le téléphone ne peut pas dépasser 40 caractères.' }),
  address: z.string().trim().max(300, { message: "L'adresse ne peut pas dépasser 300 caractères." }),
  whatsAppNumber: z
    .string()
    .trim()
    .refine((v) => /^\d{0,15}$/.test(v), { message: 'Chiffres uniquement (15 au plus), sans + ni espaces.' }),
  facebookUrl: httpUrlOrEmpty,
  twitterUrl: httpUrlOrEmpty,
  linkedinUrl: httpUrlOrEmpty,
  youtubeUrl: httpUrlOrEmpty,
  membershipFormUrl: urlOrPath,
  mapEmbedUrl: httpUrlOrEmpty,
});

export type SiteSettings = z.infer<typeof siteSettingsSchema>;

/** The contact details shown when a setting is left empty. */
export const CONTACT_FALLBACKS = {
  address: '12 rue de la Paix, 75002 Paris, France',
  contactEmail: 'contact@fondation-thv.org',
  phone: '+33 1 23 45 67 89',
} as const;

export const EMPTY_SITE_SETTINGS: SiteSettings = {
  siteLogoUrl: '',
  logoUrl: '',
  contactEmail: '',
  phone: '',
  address: '',
  whatsAppNumber: '',
  facebookUrl: '',
  twitterUrl: '',
  linkedinUrl: '',
  youtubeUrl: '',
  membershipFormUrl: '',
  mapEmbedUrl: '',
};

export function socialUrl(settings: SiteSettings, network: SocialNetwork): string {
  return settings[`${network}Url` as const];
}

/** wa.me chat link from the configured digits, or null when none is set. */
export function whatsAppLink(number: string): string | null {
  const digits = number.replace(/\D/g, '');
  return digits ? `https://wa.me/${digits}` : null;
}
