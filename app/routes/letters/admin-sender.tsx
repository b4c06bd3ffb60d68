import { data, Form, redirect } from 'react-router';
import type { Route } from './+types/admin-sender';
import { senderSchema } from '~/domain/letters/sender';
import { getSender, saveSender } from '~/domain/letters/sender.server';
import { mailConfigFor } from '~/lib/mail.server';
import { db, runtime } from '~/lib/runtime.server';
import { firstKey, formError, issueErrors } from '~/lib/form-errors.server';
import { actorOf, requireUser } from '~/routes/admin/auth.server';
import { Field, FormActions, Notice } from '~/ui/admin/Field';

/**
 * /admin/lettres/expediteur (Admin): the name and address letters come from, and the mailbox of
 * the List-Unsubscribe mailto (ADR 022). Unset, letters keep MAIL_FROM. Saved with the version it
 * was read at: a form left open while someone else saved is refused, not written over.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'letters', role: 'Admin' });
  const { sender, version } = await getSender(db());
  return { sender, version, mailFrom: mailConfigFor(runtime().env, runtime().publicUrl).from, saved: new URL(request.url).searchParams.get('ok') === '1' };
}

const CONFLICT = 'L’expéditeur a été modifié entre-temps par quelqu’un d’autre. Rechargez la page pour voir la dernière version.';

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context, { area: 'letters', role: 'Admin' });
  const form = await request.formData();
  const values = { name: String(form.get('name') ?? ''), email: String(form.get('email') ?? ''), unsubscribeMailbox: String(form.get('unsubscribeMailbox') ?? '') };
  const parsed = senderSchema.safeParse(values);
  if (!parsed.success) {
    return formError({ values, errors: issueErrors(parsed.error.issues, firstKey), conflict: false });
  }
  const saved = await saveSender(db(), actorOf(user), parsed.data, Number(form.get('version')));
  if (saved === 'conflict') return data({ values, errors: {} as Record<string, string>, conflict: true }, { status: 409 });
  throw redirect('/admin/lettres/expediteur?ok=1', 303);
}

export const meta: Route.MetaFunction = () => [{ title: 'Expéditeur des lettres | Administration' }, { name: 'robots', content: 'noindex' }];

export default function SenderScreen({ loaderData, actionData }: Route.ComponentProps) {
  const { sender, version, mailFrom, saved } = loaderData;
  const values = actionData?.values ?? { name: sender?.name ?? '', email: sender?.email ?? '', unsubscribeMailbox: sender?.unsubscribeMailbox ?? '' };
  const errors = actionData?.errors ?? {};
  return (
    <div className="max-w-xl space-y-6">
      <h1 className="text-3xl font-bold text-gray-900">Expéditeur des lettres</h1>
      <p className="break-words text-gray-700">
        {sender ? 'Les lettres partent de ce nom et de cette adresse.' : <>Tant que rien n’est enregistré ici, les lettres partent de <strong>{mailFrom}</strong> (MAIL_FROM).</>} Le domaine de l’adresse doit publier SPF, DKIM et DMARC : <a className="underline" href="/admin/lettres/dns">vérifier le domaine d’envoi</a>.
      </p>
      {saved && !actionData && <Notice tone="success" title="Expéditeur enregistré." />}
      {actionData?.conflict && <Notice tone="error" title="Rien n’a été enregistré">{CONFLICT}</Notice>}
      {Object.keys(errors).length > 0 && <Notice tone="error" title="L’expéditeur n’a pas été enregistré">Corrigez les champs signalés.</Notice>}
      <Form method="post" className="space-y-4">
        <input type="hidden" name="version" value={version} />
        <Field name="name" label="Nom de l’expéditeur" required maxLength={80} defaultValue={values.name} error={errors.name} />
        <Field name="email" label="Adresse d’expédition" type="email" required defaultValue={values.email} error={errors.email} />
        <Field
          name="unsubscribeMailbox"
          label="Adresse de désabonnement par courriel (facultatif)"
          type="email"
          defaultValue={values.unsubscribeMailbox}
          error={errors.unsubscribeMailbox}
          hint="L’adresse du lien « mailto » de l’en-tête List-Unsubscribe. Faites-la transférer par votre fournisseur (route Mailgun) vers /webhooks/mail/mailgun/entrant pour que le désabonnement soit immédiat. Vide : l’adresse de contact du site."
        />
        <FormActions submitLabel="Enregistrer" cancelTo="/admin/lettres" />
      </Form>
    </div>
  );
}
