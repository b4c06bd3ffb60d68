import { data } from 'react-router';
import type { Route } from './+types/partner-edit';
import { createPartner, getPartner, updatePartner } from '~/domain/partners/partners.server';
import { partnerSchema } from '~/domain/partners/schema';
import { actorOf, requireUser } from '~/lib/auth.server';
import { contentChanged, db } from '~/lib/runtime.server';
import { Field } from '~/ui/admin/Field';
import { ImageField } from '~/ui/admin/ImageField';
import { HistoryLink } from '~/ui/admin/editorial';
import { ContentForm, SavedNotice, useSavedRedirect } from '~/ui/admin/content';
import { conflict, readForm, saved } from './form.server';

const LIST = '/admin/partners';
const notFound = () => data('Partenaire introuvable', { status: 404 });

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'partners' });
  if (!params.id) return { isNew: true, version: undefined, values: {} as Record<string, string> };
  const p = await getPartner(db(), params.id);
  if (!p) throw notFound();
  return { isNew: false, version: p.version, values: { name: p.name, logoUrl: p.logoUrl, website: p.website } as Record<string, string> };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const me = await requireUser(request, context, { area: 'partners' });
  const form = await readForm(request, partnerSchema);
  if ('failure' in form) return form.failure;
  if (!params.id) {
    const partner = await createPartner(db(), actorOf(me), form.data);
    await contentChanged();
    return saved('Partenaire ajouté !', partner.name);
  }
  const result = await updatePartner(db(), actorOf(me), params.id, form.data, form.version);
  if ('error' in result) {
    if (result.error === 'notFound') throw notFound();
    return conflict(form.values);
  }
  await contentChanged();
  return saved('Partenaire modifié !', result.partner.name);
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.isNew ? 'Ajouter un partenaire' : 'Modifier un partenaire'} | Administration` },
  { name: 'robots', content: 'noindex' },
];

export default function PartnerEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { isNew, version } = loaderData;
  useSavedRedirect(actionData, LIST);
  const v: Record<string, string> = actionData?.values ?? loaderData.values;
  return (
    <div className="space-y-6">
      <h1 className="text-3xl font-bold text-gray-900">{isNew ? 'Ajouter un partenaire' : 'Modifier le partenaire'}</h1>
      <HistoryLink list={LIST} />
      <SavedNotice actionData={actionData} to={LIST} />
      <ContentForm schema={partnerSchema} errors={actionData?.errors} version={version} submitLabel={isNew ? 'Ajouter le partenaire' : 'Enregistrer'} cancelTo={LIST}>
        {(errors) => (
          <div className="max-w-2xl space-y-5 rounded-xl border border-gray-200 bg-white p-4 shadow-sm">
            <Field name="name" label="Nom *" required maxLength={150} defaultValue={v.name} error={errors.name} />
            <ImageField name="logoUrl" label="Logo *" defaultValue={v.logoUrl} error={errors.logoUrl} />
            <Field name="website" label="Site web *" type="url" required placeholder="https://" defaultValue={v.website} error={errors.website} hint="Adresse complète, commençant par http:// ou https://." />
          </div>
        )}
      </ContentForm>
    </div>
  );
}
