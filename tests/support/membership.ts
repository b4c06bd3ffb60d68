import { membershipTypeSchema, type MemberInput } from '~/domain/membership/forms';

/** A type of membership as the settings form would submit it (fr/en/es names, 30 €, anniversary). */
export function membershipType(over: Record<string, string> = {}) {
  return membershipTypeSchema.parse({
    name_fr: 'Membre actif',
    name_en: 'Active member',
    name_es: 'Miembro activo',
    description_fr: '',
    description_en: '',
    description_es: '',
    dues: '30',
    period_model: 'anniversary',
    rollover: '',
    ...over,
  });
}

/** A member of a type, living in Paris, mailed in French. */
export function memberInput(typeId: string, over: Partial<MemberInput> = {}): MemberInput {
  return {
    first_name: 'Awa',
    last_name: 'Diop',
    email: 'awa@example.org',
    phone: '',
    address: '12 rue des Lilas',
    postal_code: '75011',
    city: 'Paris',
    country: 'France',
    type_id: typeId,
    language: 'fr',
    exempt: false,
    ...over,
  };
}
