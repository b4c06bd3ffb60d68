/** Addresses of the sign-in flows, shared by the server guard and the pages. */
export const LOGIN_PATH = '/admin/login';
export const SETUP_PATH = '/admin/setup';
export const LOGOUT_PATH = '/admin/logout';
export const HOME_PATH = '/admin/dashboard';
export const USERS_PATH = '/admin/users';
export const FORGOT_PATH = '/admin/mot-de-passe-oublie';
export const invitationPath = (token: string) => `/admin/invitation/${token}`;
export const resetPath = (token: string) => `/admin/reinitialiser/${token}`;
/** Set on the sign-in page's address after signing out: it shows 'Déconnexion réussie'. */
export const LOGGED_OUT_PARAM = 'deconnecte';
/** Set on the sign-in page's address after an invitation or reset link set a password. */
export const PASSWORD_SET_PARAM = 'mot-de-passe-defini';
