import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router';
import { LOGIN_PATH, PASSWORD_SET_PARAM } from '~/domain/users/paths';
import { fieldErrors, formValues, setPasswordSchema } from '~/domain/users/schemas';
import { redeemPasswordToken, userForToken, type TokenKind } from '~/domain/users/users.server';
import { hashPassword } from '~/lib/password.server';
import { db } from '~/lib/runtime.server';

/**
 * The invitation and reset pages: a one-time link that lets its user choose a password. A link that
 * is unknown, used or expired answers 410.
 */
export function passwordLinkLoader(kind: TokenKind) {
  return async ({ params }: LoaderFunctionArgs) => {
    const user = await userForToken(db(), params.token ?? '', kind);
    if (!user) return data({ valid: false as const, name: '', email: '' }, { status: 410 });
    return { valid: true as const, name: user.name, email: user.email };
  };
}

export function passwordLinkAction(kind: TokenKind) {
  return async ({ request, params }: ActionFunctionArgs) => {
    const token = params.token ?? '';
    const values = formValues(await request.formData());
    if (!(await userForToken(db(), token, kind))) return data({ errors: {}, expired: true }, { status: 410 });
    const parsed = setPasswordSchema.safeParse(values);
    if (!parsed.success) return data({ errors: fieldErrors(parsed.error), expired: false }, { status: 400 });
    const user = await redeemPasswordToken(db(), token, kind, await hashPassword(parsed.data.password));
    if (!user) return data({ errors: {}, expired: true }, { status: 410 });
    throw redirect(`${LOGIN_PATH}?${PASSWORD_SET_PARAM}=1`, 303);
  };
}
