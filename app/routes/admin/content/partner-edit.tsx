import type { Route } from './+types/partner-edit';
import { partnerEditable } from '~/domain/partners/editable.server';
import { createPartner } from '~/domain/partners/partners.server';
import { partnerSchema, type PartnerInput } from '~/domain/partners/schema';
import { db } from '~/lib/runtime.server';
import { EditorPage, editorMeta } from '~/ui/admin/EditorPage';
import { Field } from '~/ui/admin/Field';
import { ImageField } from '~/ui/admin/ImageField';
import { editorAction, editorLoader, type EditorSpec } from '../editorial/editor.server';

const LIST = '/admin/partners';

/** A partner in its editor: the rest of the loader and action is the editors' (editor.server.ts). */
const PARTNER: EditorSpec<PartnerInput, PartnerInput> = {
  ed: partnerEditable,
  schema: partnerSchema,
  missing: 'Partenaire introuvable',
  valuesOf: (snapshot) => {
    const shown = snapshot as unknown as PartnerInput;
    return { name: shown.name, logoUrl: shown.logoUrl, website: shown.website };
  },
  inputOf: (d) => d,
  // A new partner is on the public page at once; its later changes are drafts until "Publier" (no `update`).
  create: {
    toast: 'Partenaire ajouté !',
    async write(actor, input) {
      const partner = await createPartner(db(), actor, input);
      return { title: partner.name, version: partner.version };
    },
  },
};

export const loader = (args: Route.LoaderArgs) => editorLoader(args, PARTNER);
export const action = (args: Route.ActionArgs) => editorAction(args, PARTNER);

export const meta: Route.MetaFunction = editorMeta('Ajouter un partenaire', 'Modifier un partenaire');

export default function PartnerEdit({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <EditorPage title={loaderData.isNew ? 'Ajouter un partenaire' : 'Modifier le partenaire'} list={LIST} schema={partnerSchema} submitLabel="Ajouter le partenaire" loaderData={loaderData} actionData={actionData}>
      {(errors, v) => (
        <div className="max-w-2xl space-y-5 rounded-xl border border-gray-200 bg-white p-4 shadow-sm">
          <Field name="name" label="Nom *" required maxLength={150} defaultValue={v.name} error={errors.name} />
          <ImageField name="logoUrl" label="Logo *" defaultValue={v.logoUrl} error={errors.logoUrl} />
          <Field name="website" label="Site web *" type="url" required placeholder="https://" defaultValue={v.website} error={errors.website} hint="Adresse complète, commençant par http:// ou https://." />
        </div>
      )}
    </EditorPage>
  );
}
