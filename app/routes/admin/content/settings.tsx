import type { Route } from './+types/settings';
import { SOCIAL_NETWORKS, siteSettingsSchema, type SiteSettings } from '~/domain/settings/site-settings';
import { getEditableSiteSettings, saveSiteSettings } from '~/domain/settings/site-settings.server';
import { actorOf, requireUser } from '~/routes/admin/auth.server';
import { contentChanged, db } from '~/lib/runtime.server';
import { Field } from '~/ui/admin/Field';
import { ImageField } from '~/ui/admin/ImageField';
import { ContentForm, SavedNotice } from '~/ui/admin/content';
import { useToast } from '~/ui/admin/hooks';
import { conflict, readForm, saved } from './form.server';

const SELF = '/admin/settings';

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'settings' });
  const { settings, version } = await getEditableSiteSettings(db());
  return { values: settings as Record<string, string>, version };
}

export async function action({ request, context }: Route.ActionArgs) {
  const me = await requireUser(request, context, { area: 'settings' });
  const form = await readForm(request, siteSettingsSchema);
  if ('failure' in form) return form.failure;
  const result = await saveSiteSettings(db(), actorOf(me), form.data as SiteSettings, form.version);
  if (result === 'conflict') return conflict(form.values);
  await contentChanged();
  return saved('Paramètres sauvegardés !');
}

export const meta: Route.MetaFunction = () => [{ title: 'Paramètres | Administration' }, { name: 'robots', content: 'noindex' }];

export default function Settings({ loaderData, actionData }: Route.ComponentProps) {
  useToast(actionData?.toast);
  // After a save the loader's new values and version take over (the form is keyed by the version).
  const v: Record<string, string> = actionData?.saved ? loaderData.values : (actionData?.values ?? loaderData.values);
  const section = 'space-y-5 rounded-xl border border-gray-200 bg-white p-4 shadow-sm';
  return (
    <div className="space-y-6">
      <h1 className="text-3xl font-bold text-gray-900">Paramètres du site</h1>
      <SavedNotice actionData={actionData} to={SELF} />
      <ContentForm key={loaderData.version} schema={siteSettingsSchema} errors={actionData?.errors} version={loaderData.version} submitLabel="Sauvegarder" cancelTo="/admin/dashboard">
        {(errors) => (
          <>
            <fieldset className={section}>
              <legend className="px-1 font-semibold text-gray-900">Logos</legend>
              <ImageField name="siteLogoUrl" label="Logo du site (pied de page, partage)" defaultValue={v.siteLogoUrl} error={errors.siteLogoUrl} />
              <ImageField name="logoUrl" label="Logo de l'en-tête" defaultValue={v.logoUrl} error={errors.logoUrl} />
            </fieldset>
            <fieldset className={`${section} grid gap-5 sm:grid-cols-2`}>
              <legend className="px-1 font-semibold text-gray-900">Coordonnées</legend>
              <Field name="contactEmail" label="Email de contact" type="email" maxLength={254} defaultValue={v.contactEmail} error={errors.contactEmail} hint="Reçoit les messages du formulaire de contact." />
              <Field name="phone" label="Téléphone" type="tel" maxLength={40} defaultValue={v.phone} error={errors.phone} />
              <Field name="address" label="Adresse" maxLength={300} defaultValue={v.address} error={errors.address} className="sm:col-span-2" />
              <Field
                name="whatsAppNumber"
                label="Numéro WhatsApp"
                inputMode="numeric"
                pattern="\d*"
                maxLength={15}
                defaultValue={v.whatsAppNumber}
                error={errors.whatsAppNumber}
                hint="Chiffres uniquement, indicatif du pays compris, sans + ni espaces (ex. 33612345678)."
              />
              <Field name="mapEmbedUrl" label="Carte (URL d'intégration)" type="url" maxLength={2000} defaultValue={v.mapEmbedUrl} error={errors.mapEmbedUrl} hint="Adresse https de la carte intégrée sur la page Contact ; vide : pas de carte." />
            </fieldset>
            <fieldset className={`${section} grid gap-5 sm:grid-cols-2`}>
              <legend className="px-1 font-semibold text-gray-900">Réseaux sociaux</legend>
              {SOCIAL_NETWORKS.map((n) => (
                <Field
                  key={n.key}
                  name={`${n.key}Url`}
                  label={n.label}
                  type="url"
                  maxLength={2000}
                  placeholder="https://"
                  defaultValue={v[`${n.key}Url`]}
                  error={errors[`${n.key}Url`]}
                />
              ))}
              <p className="text-sm text-gray-600 sm:col-span-2">Une adresse http(s), ou vide : le pied de page indique alors que le lien n'est pas encore configuré.</p>
            </fieldset>
            <fieldset className={section}>
              <legend className="px-1 font-semibold text-gray-900">Adhésion</legend>
              <ImageField name="membershipFormUrl" label="Formulaire d'adhésion (PDF)" accept="pdf" defaultValue={v.membershipFormUrl} error={errors.membershipFormUrl} />
            </fieldset>
          </>
        )}
      </ContentForm>
    </div>
  );
}
