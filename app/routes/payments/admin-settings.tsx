import { Form, data } from 'react-router';
import type { Route } from './+types/admin-settings';
import { PAYMENT_SETTINGS_SAVED, type PublicPaymentSettings } from '~/domain/donations/providers/settings';
import { getPaymentSettings, readPostedPaymentSettings, toPublic, updatePaymentSettings } from '~/domain/donations/providers/settings.server';
import { actorOf, requireUser } from '~/routes/admin/auth.server';
import { fixFieldsToast, formError } from '~/lib/form-errors.server';
import { contentChanged, runtime } from '~/lib/runtime.server';
import { Notice } from '~/ui/admin/Field';
import { useHydrated, useToast } from '~/ui/admin/hooks';
import { GivingSection, SaveButton } from '~/ui/admin/payments';
import { CheckoutMethods, ProviderSections } from '~/ui/admin/providers/sections';

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'payments' });
  const s = await getPaymentSettings(runtime().db, runtime().secret);
  return { settings: toPublic(s), version: s.version };
}

const CONFLICT = 'Ces paramètres ont été modifiés entre-temps par quelqu’un d’autre. Rechargez la page pour voir la dernière version.';

export async function action({ request, context }: Route.ActionArgs) {
  const me = await requireUser(request, context, { area: 'payments' });
  const rt = runtime();
  const form = await request.formData();
  // The merge over what is saved and the secrets' rules: readPostedPaymentSettings (the donations area).
  const posted = readPostedPaymentSettings(form, await getPaymentSettings(rt.db, rt.secret));
  if (!posted.ok) return formError({ errors: posted.errors, toast: posted.refused === 'fields' ? fixFieldsToast('Paramètres non enregistrés') : null });
  const saved = await updatePaymentSettings(rt.db, rt.secret, actorOf(me), posted, Number(form.get('version')));
  if (!saved.ok) return data({ errors: { form: CONFLICT }, toast: null }, { status: 409 });
  // The donate page (its tabs, presets, providers' origins) is kept in the HTML cache: dropped now.
  await contentChanged();
  return { errors: {} as Record<string, string>, toast: PAYMENT_SETTINGS_SAVED };
}

export const meta: Route.MetaFunction = () => [{ title: 'Paramètres de Paiement | Administration' }, { name: 'robots', content: 'noindex' }];

export default function PaymentSettingsScreen({ loaderData, actionData }: Route.ComponentProps) {
  const s: PublicPaymentSettings = loaderData.settings;
  const hydrated = useHydrated();
  useToast(actionData?.toast);
  const errors: Record<string, string> = actionData?.errors ?? {};

  return (
    <Form method="post" key={loaderData.version} className="space-y-6">
      <input type="hidden" name="version" value={loaderData.version} />
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold text-gray-900">Paramètres de Paiement</h1>
        <SaveButton />
      </div>
      {!hydrated && actionData?.toast && (
        <Notice tone={actionData.toast.variant === 'success' ? 'success' : 'error'} title={actionData.toast.title}>
          {actionData.toast.description}
        </Notice>
      )}
      {errors.form && <Notice tone="error">{errors.form}</Notice>}

      <ProviderSections s={s} errors={errors} />

      <GivingSection giving={s.giving} errors={errors}>
        <CheckoutMethods giving={s.giving} />
      </GivingSection>

      <div className="flex justify-end">
        <SaveButton />
      </div>
    </Form>
  );
}
