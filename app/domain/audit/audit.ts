/** Audit-log entries as the dashboard shows them (shared with the browser: no server imports). */
export interface ActivityEntry {
  id: string;
  at: string;
  userName: string;
  action: string;
  target: string;
  details: Record<string, unknown>;
}

/** French wording per action; screens added later add theirs here. */
export const ACTION_LABELS: Record<string, string> = {
  'auth.setup': 'Premier administrateur créé',
  'auth.login': 'Connexion',
  'auth.login_failed': 'Échec de connexion',
  'auth.login_blocked': 'Connexion bloquée (trop de tentatives)',
  'auth.failures_notice': 'Propriétaire prévenu de tentatives de connexion répétées',
  'auth.logout': 'Déconnexion',
  'auth.password_changed': 'Mot de passe modifié',
  'auth.reset_requested': 'Réinitialisation du mot de passe demandée',
  'auth.password_reset': 'Mot de passe réinitialisé',
  'auth.invitation_accepted': 'Invitation acceptée',
  'user.create': 'Utilisateur ajouté',
  'user.update': 'Utilisateur mis à jour',
  'user.delete': 'Utilisateur supprimé',
  'user.invitation_resent': 'Invitation renvoyée',
  'page.update': 'Page modifiée',
  'project.create': 'Projet ajouté',
  'project.update': 'Projet modifié',
  'project.visibility': 'Projet affiché ou retiré du site',
  'project.delete': 'Projet supprimé',
  'post.create': 'Article ajouté',
  'post.update': 'Article modifié',
  'post.status': 'Statut d’article modifié',
  'post.delete': 'Article supprimé',
  'partner.create': 'Partenaire ajouté',
  'partner.update': 'Partenaire modifié',
  'partner.delete': 'Partenaire supprimé',
  'settings.update': 'Paramètres du site modifiés',
  'message.delete': 'Message supprimé',
  'media.upload': 'Fichier téléversé',
  'media.delete': 'Fichier supprimé',
  'payments.update': 'Paramètres de paiement modifiés',
  'monthly_gift.adopted': 'Don mensuel existant repris',
  'receipts.next_number': 'Prochain numéro de reçu fixé',
  'dashboard.setup_dismissed': 'Liste de mise en route masquée',
  'donation.succeeded': 'Don reçu',
  'donation.refunded': 'Don remboursé',
  'donation.recorded': 'Paiement reçu en main propre enregistré',
  'donation.voided': 'Paiement saisi à la main annulé',
  'donation.disputed': 'Paiement contesté auprès de la banque',
  'payouts.refresh': 'Frais et versements relus chez les prestataires',
  'receipts.declaration': 'Déclaration des dons (article 222 bis) marquée comme faite',
  'person.merge': 'Fiches de donateur fusionnées',
  'person.unmerge': 'Fusion de fiches annulée',
  'person.note_delete': 'Note d’une fiche supprimée',
  'tag.rename': 'Étiquette renommée',
  'tag.merge': 'Étiquettes fusionnées',
};

export function actionLabel(action: string): string {
  return ACTION_LABELS[action] ?? action;
}
