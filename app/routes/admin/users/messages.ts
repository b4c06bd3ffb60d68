import type { ServerToast } from '~/ui/site/ToastRegion';

/** What the users screens say (their toasts, and the refusals around the last Admin). */
export const EMAIL_TAKEN = 'Un utilisateur utilise déjà cet email.';
export const CONFLICT = 'Cet utilisateur a été modifié entre-temps : rechargez la page avant de recommencer.';

/** Says whether the invitation mail left; when it did not, the admin passes the link on. */
export const userAdded = (name: string, mailSent: boolean): ServerToast => ({
  title: 'Utilisateur ajouté !',
  description: mailSent ? `L'invitation a été envoyée à ${name}.` : `L'email d'invitation n'est pas parti : transmettez le lien à ${name}.`,
  variant: 'success',
});
export const userUpdated = (name: string): ServerToast => ({ title: 'Utilisateur mis à jour !', description: name, variant: 'success' });
export const userDeleted = (name: string): ServerToast => ({ title: 'Utilisateur supprimé', description: name });

/** Refusal to delete (or demote) the last Admin. */
export function lastAdminToast(kind: 'delete' | 'demote', onlyUser = false): ServerToast {
  const description =
    kind === 'delete'
      ? onlyUser
        ? 'Vous ne pouvez pas supprimer le seul utilisateur.'
        : 'Vous ne pouvez pas supprimer le seul utilisateur Admin.'
      : 'Vous ne pouvez pas supprimer le seul utilisateur Admin ni lui retirer son rôle.';
  return { title: 'Action impossible', description, variant: 'destructive' };
}
