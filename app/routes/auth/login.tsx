import { useEffect } from 'react';
import { Form, data, redirect, useNavigate, useNavigation, useSearchParams, type ShouldRevalidateFunctionArgs } from 'react-router';
import type { Route } from './+types/login';
import { sendFailuresNotice } from '~/domain/users/notify.server';
import { signIn } from '~/domain/users/sign-in.server';
import { LOGGED_OUT_PARAM, PASSWORD_SET_PARAM, SETUP_PATH } from '~/domain/users/paths';
import { fieldErrors, formValues, loginSchema } from '~/domain/users/schemas';
import { countUsers } from '~/domain/users/users.server';
import { retryMessage } from '~/domain/users/throttle.server';
import { currentUser, safeRedirect, startSession } from '~/routes/admin/auth.server';
import { verifyPassword } from '~/lib/password.server';
import { requestInfoContext } from '~/lib/request-context.server';
import { withActionHeaders } from '~/lib/action-headers';
import { db } from '~/lib/runtime.server';
import { Field, ForgotLink, Notice, primaryButton } from '~/ui/admin/Field';
import { useFormErrors, useHydrated, useToast } from '~/ui/admin/hooks';

/** The dashboard opens 1000 ms after the success toast. */
const REDIRECT_DELAY_MS = 1000;

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  if (await currentUser(request, context)) throw redirect(safeRedirect(url.searchParams.get('redirectTo')));
  if ((await countUsers(db())) === 0) throw redirect(SETUP_PATH);
  if (url.searchParams.has(LOGGED_OUT_PARAM)) return { toast: { title: 'Déconnexion réussie', description: 'Vous avez été déconnecté.' } };
  if (url.searchParams.has(PASSWORD_SET_PARAM)) {
    return { toast: { title: 'Mot de passe enregistré', description: 'Vous pouvez maintenant vous connecter.', variant: 'success' as const } };
  }
  return { toast: null };
}

const failure = { title: 'Erreur de connexion', description: 'Email ou mot de passe incorrect.', variant: 'destructive' as const };
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function action({ request, context }: Route.ActionArgs) {
  const values = formValues(await request.formData());
  const redirectTo = safeRedirect(values.redirectTo);
  const parsed = loginSchema.safeParse(values);
  if (!parsed.success) return data({ ok: false as const, errors: fieldErrors(parsed.error), email: values.email ?? '', toast: null }, { status: 400 });
  const { email, password } = parsed.data;
  const { clientIp } = context.get(requestInfoContext);

  const result = await signIn(db(), { email, password, ip: clientIp }, {
    verify: verifyPassword,
    sleep,
    notify: async (user, failures) => void (await sendFailuresNotice(request, user, failures)),
  });
  if (!result.ok && result.reason === 'throttled') {
    const toast = { title: 'Trop de tentatives', description: retryMessage(result.retryAfter), variant: 'destructive' as const };
    return data({ ok: false as const, errors: {}, email, toast }, { status: 429, headers: { 'Retry-After': String(result.retryAfter) } });
  }
  if (!result.ok) return data({ ok: false as const, errors: {}, email, toast: failure }, { status: 400 });

  const cookie = await startSession(request, context, result.user.id);
  const headers = { 'Set-Cookie': cookie };
  // Without JavaScript there is no toast to wait for: straight to the page.
  if (values.js !== '1') throw redirect(redirectTo, { status: 303, headers });
  const toast = { title: 'Connexion réussie !', description: 'Bienvenue sur le tableau de bord.', variant: 'success' as const };
  return data({ ok: true as const, redirectTo, errors: {}, email, toast }, { headers });
}

/** After signing in, this page's loader would redirect at once: the toast gets its second first. */
export function shouldRevalidate({ actionResult, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return (actionResult as { ok?: boolean } | undefined)?.ok ? false : defaultShouldRevalidate;
}

export const headers = withActionHeaders;

export const meta: Route.MetaFunction = () => [{ title: 'Connexion | Administration' }, { name: 'robots', content: 'noindex' }];

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const [params] = useSearchParams();
  const { errors, onSubmit } = useFormErrors(loginSchema, actionData?.errors);
  useToast(loaderData.toast, 'once');
  useToast(actionData?.toast);

  useEffect(() => {
    if (!actionData?.ok) return;
    const timer = setTimeout(() => navigate(actionData.redirectTo), REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [actionData, navigate]);

  const busy = navigation.state !== 'idle' || actionData?.ok;
  return (
    <>
      <h1 className="text-2xl font-bold text-gray-900">Connexion</h1>
      <p className="mt-2 text-gray-700">Tableau de Bord Administrateur</p>
      {!hydrated && actionData?.toast && (
        <div className="mt-4">
          <Notice tone="error" title={actionData.toast.title}>
            {actionData.toast.description}
          </Notice>
        </div>
      )}
      <Form method="post" noValidate={hydrated} onSubmit={onSubmit} className="mt-6 space-y-5">
        <input type="hidden" name="redirectTo" value={params.get('redirectTo') ?? ''} />
        {hydrated && <input type="hidden" name="js" value="1" />}
        <Field name="email" label="Email" type="email" autoComplete="username" required defaultValue={actionData?.email ?? ''} error={errors.email} />
        <Field name="password" label="Mot de passe" type="password" autoComplete="current-password" required error={errors.password} />
        <button type="submit" className={`${primaryButton} w-full`} disabled={busy}>
          Se connecter
        </button>
      </Form>
      <ForgotLink />
    </>
  );
}
