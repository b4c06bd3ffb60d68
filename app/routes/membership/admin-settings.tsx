import { Form, Link, data } from 'react-router';
import type { Route } from './+types/admin-settings';
import { formatMoney } from '~/lib/currency';
import { membershipSettingsSchema, PERIOD_MODEL_LABELS } from '~/domain/membership/forms';
import { formatReminderSteps, stepLabel } from '~/domain/membership/reminders';
import { saveMembershipSettings } from '~/domain/membership/settings.server';
import { actorOf, requireUser } from '~/routes/admin/auth.server';
import { runtime } from '~/lib/runtime.server';
import { fixFieldsToast, formError, issueErrors } from '~/lib/form-errors.server';
import { AdminTable } from '~/ui/admin/AdminTable';
import { Field, Notice, primaryButton } from '~/ui/admin/Field';
import { MembershipTabs } from '~/ui/admin/membership';
import { useToast } from '~/ui/admin/hooks';
import { membershipContext } from './admin.server';

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'membership-settings' });
  const { settings, types } = await membershipContext();
  return {
    settings: { ...settings, reminderText: formatReminderSteps(settings.reminderSteps), reminderWords: settings.reminderSteps.map(stepLabel).join(', ') },
    types: types.map((t) => ({
      id: t.id,
      name: t.translations.fr.name,
      dues: t.duesCents === 0 ? 'Gratuite' : formatMoney(t.duesCents, 'EUR'),
      period: t.rule.model === 'calendar' && t.rule.rollover ? `${PERIOD_MODEL_LABELS.calendar}, bascule au ${t.rule.rollover.split('-').reverse().join('/')}` : PERIOD_MODEL_LABELS[t.rule.model],
      deductible: t.taxDeductible,
    })),
  };
}

const CONFLICT = 'Ces paramètres ont été modifiés entre-temps par quelqu’un d’autre. Rechargez la page pour voir la dernière version.';

export async function action({ request, context }: Route.ActionArgs) {
  const me = await requireUser(request, context, { area: 'membership-settings' });
  const form = await request.formData();
  const raw = Object.fromEntries([...form.entries()].map(([k, v]) => [k, typeof v === 'string' ? v : '']));
  const version = Number(raw.version);
  if (!Number.isInteger(version) || version < 0) return data({ errors: { form: CONFLICT } as Record<string, string>, values: raw, toast: null }, { status: 409 });
  const parsed = membershipSettingsSchema.safeParse(raw);
  if (!parsed.success) {
    return formError({ errors: issueErrors(parsed.error.issues), values: raw, toast: fixFieldsToast('Paramètres non enregistrés') });
  }
  if ((await saveMembershipSettings(runtime().db, actorOf(me), parsed.data, version)) !== 'ok') return data({ errors: { form: CONFLICT } as Record<string, string>, values: raw, toast: null }, { status: 409 });
  return { errors: {} as Record<string, string>, values: null, toast: { title: 'Paramètres des adhésions sauvegardés !', variant: 'success' as const } };
}

export const meta: Route.MetaFunction = () => [{ title: 'Paramètres des adhésions | Administration' }, { name: 'robots', content: 'noindex' }];

export default function MembershipSettingsScreen({ loaderData, actionData }: Route.ComponentProps) {
  const { settings: s, types } = loaderData;
  const errors = actionData?.errors ?? {};
  const v: Record<string, string> = actionData?.values ?? {};
  useToast(actionData?.toast);
  return (
    <div className="max-w-4xl space-y-6">
      <h1 className="text-3xl font-bold text-gray-900">Paramètres des adhésions</h1>
      <MembershipTabs admin />
      {errors.form && <Notice tone="error">{errors.form}</Notice>}
      {actionData?.toast && <Notice tone={actionData.toast.variant === 'destructive' ? 'error' : 'success'} title={actionData.toast.title} />}
      <section className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 className="text-xl font-bold text-gray-900">Types d’adhésion</h2>
          <Link to="/admin/adhesions/parametres/types/nouveau" className={primaryButton}>Nouveau type</Link>
        </div>
        {types.length === 0 ? (
          <p className="text-gray-700">Aucun type d’adhésion pour l’instant.</p>
        ) : (
          <AdminTable caption="Types d’adhésion" columns={['Nom', 'Cotisation annuelle', 'Période', 'Reçu fiscal']}>
            {types.map((t) => (
              <tr key={t.id}>
                <td className="px-4 py-3">{t.name}</td>
                <td className="px-4 py-3 whitespace-nowrap">{t.dues}</td>
                <td className="px-4 py-3">{t.period}</td>
                <td className="px-4 py-3">{t.deductible ? 'Oui' : 'Non'}</td>
                <td className="px-4 py-3"><Link to={`/admin/adhesions/parametres/types/${t.id}`} className="underline">Modifier<span className="sr-only"> le type {t.name}</span></Link></td>
              </tr>
            ))}
          </AdminTable>
        )}
      </section>
      <Form method="post" className="space-y-4 rounded-lg border border-gray-200 bg-white p-6" noValidate>
        <h2 className="text-xl font-bold text-gray-900">Réglages généraux</h2>
        <input type="hidden" name="version" value={s.version} />
        <Field name="graceDays" label="Délai de grâce (jours)" inputMode="numeric" defaultValue={v.graceDays ?? String(s.graceDays)} error={errors.graceDays} hint="Après la fin de sa période, le membre reste compté comme membre pendant ce délai." maxLength={3} />
        <Field
          name="reminderSteps"
          label="Calendrier des rappels (jours par rapport à l’échéance)"
          defaultValue={v.reminderSteps ?? s.reminderText}
          error={errors.reminderSteps}
          hint={`Négatif : avant l’échéance ; 0 : le jour même ; positif : après. Actuellement : ${s.reminderWords || 'aucun rappel'}.`}
          maxLength={200}
        />
        <Field name="statutesUrl" label="Adresse des statuts" defaultValue={v.statutesUrl ?? s.statutesUrl} error={errors.statutesUrl} hint="Le lien vers les statuts auxquels un nouveau membre adhère (https://… ou /media/…)." maxLength={500} />
        <Field name="retentionYears" label="Conservation des données des membres expirés (années)" inputMode="numeric" defaultValue={v.retentionYears ?? String(s.retentionYears)} error={errors.retentionYears} maxLength={2} />
        <button type="submit" className={primaryButton}>Enregistrer</button>
      </Form>
    </div>
  );
}
