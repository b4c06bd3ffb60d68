import { data } from 'react-router';
import type { Route } from './+types/partner-edit';
import { partnerEditable } from '~/domain/partners/editable.server';
import { createPartner, getPartner, partnerSnapshot } from '~/domain/partners/partners.server';
import { partnerSchema, type PartnerInput } from '~/domain/partners/schema';
import { actorOf, requireUser } from '~/routes/admin/auth.server';
import { contentChanged, db } from '~/lib/runtime.server';
import { Field } from '~/ui/admin/Field';
import { ImageField } from '~/ui/admin/ImageField';
import { EditorialFormActions, EditorialPanel, StayNotice, useAutosave } from '~/ui/admin/editorial';
import { ContentForm, SavedNotice, useSavedRedirect } from '~/ui/admin/content';
import { discardAction, editorialState, liveEditorialAction } from '../editorial/editorial.server';
import { readForm, saved } from './form.server';

const LIST = '/admin/partners';
const notFound = () => data('Partenaire introuvable', { status: 404 });

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const me = await requireUser(request, context, { area: 'partners' });
  if (!params.id) return { isNew: true, version: undefined, values: {} as Record<string, string>, editorial: null };
  const p = await getPartner(db(), params.id);
  if (!p) throw notFound();
  const editorial = await editorialState(request, me, partnerEditable, params.id, { version: p.version, snapshot: partnerSnapshot(p) });
  // The form continues the draft when there is one; "Restaurer la copie" shows the autosaved copy instead.
  const shown = (editorial.draft?.snapshot ?? partnerSnapshot(p)) as unknown as PartnerInput;
  const values: Record<string, string> = editorial.restoredCopy ?? { name: shown.name, logoUrl: shown.logoUrl, website: shown.website };
  return { isNew: false, version: p.version, values, editorial: { ...editorial.view, published: true } };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const me = await requireUser(request, context, { area: 'partners' });
  const form = await readForm(request, partnerSchema);
  if (params.id && form.values.intent === 'discard') return discardAction(me, partnerEditable, params.id, form.values);
  if ('failure' in form) return form.failure;
  if (!params.id) {
    // A new partner is on the public page at once; its later changes are drafts until "Publier".
    const partner = await createPartner(db(), actorOf(me), form.data);
    await contentChanged();
    return saved('Partenaire ajouté !', partner.name);
  }
  return liveEditorialAction(me, partnerEditable, params.id, form, { ...form.data });
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.isNew ? 'Ajouter un partenaire' : 'Modifier un partenaire'} | Administration` },
  { name: 'robots', content: 'noindex' },
];

export default function PartnerEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { isNew, version, editorial } = loaderData;
  useSavedRedirect(actionData, LIST);
  const v: Record<string, string> = actionData?.values ?? loaderData.values;
  const autosave = useAutosave({ url: editorial?.autosavePath ?? '', initialSeq: editorial?.seq ?? 0, initialOthers: editorial?.others ?? [] });
  return (
    <div className="space-y-6">
      <h1 className="text-3xl font-bold text-gray-900">{isNew ? 'Ajouter un partenaire' : 'Modifier le partenaire'}</h1>
      <SavedNotice actionData={actionData} to={LIST} />
      <StayNotice actionData={actionData} />
      {editorial && <EditorialPanel editorial={editorial} autosave={autosave} />}
      <ContentForm
        schema={partnerSchema}
        errors={actionData?.errors}
        version={version}
        submitLabel="Ajouter le partenaire"
        cancelTo={LIST}
        onInput={editorial ? autosave.onInput : undefined}
        actions={editorial && <EditorialFormActions editorial={editorial} cancelTo={LIST} publishAt={v.publishAt} error={actionData?.errors?.publishAt} status={autosave.status} />}
      >
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
