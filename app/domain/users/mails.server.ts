import type { Mail } from '~/lib/mail.server';

/** The mails of the sign-in flows, in French, as plain text and HTML. */
const SITE = 'Fondation THV';

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function html(paragraphs: string[], link: string, button: string): string {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px">${escapeHtml(p)}</p>`).join('');
  const href = escapeHtml(link);
  return `<!doctype html><html lang="fr"><body style="font-family:Arial,sans-serif;color:#1f2937;line-height:1.5">
<div style="max-width:560px;margin:0 auto;padding:24px">
<h1 style="font-size:20px;color:#7c2d12">${SITE}</h1>
${body}
<p style="margin:24px 0"><a href="${href}" style="background:#9a3412;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:bold">${escapeHtml(button)}</a></p>
<p style="font-size:13px;color:#4b5563">Si le bouton ne fonctionne pas, copiez ce lien dans votre navigateur :<br><a href="${href}">${href}</a></p>
</div></body></html>`;
}

export function invitationMail(to: { name: string; email: string }, link: string, inviter: string, validDays: number): Mail {
  const lines = [
    `Bonjour ${to.name},`,
    `${inviter} vous invite à rejoindre le tableau de bord administrateur du site ${SITE}.`,
    `Pour activer votre compte, choisissez votre mot de passe en suivant ce lien. Il est valable ${validDays} jours et ne sert qu'une fois.`,
  ];
  return {
    to: to.email,
    subject: `Invitation au tableau de bord ${SITE}`,
    text: `${lines.join('\n\n')}\n\n${link}\n\nSi vous n'attendiez pas cette invitation, ignorez ce message.\n`,
    html: html([...lines, "Si vous n'attendiez pas cette invitation, ignorez ce message."], link, 'Choisir mon mot de passe'),
  };
}

export function resetMail(to: { name: string; email: string }, link: string, validMinutes: number): Mail {
  const lines = [
    `Bonjour ${to.name},`,
    `Une réinitialisation du mot de passe de votre compte ${SITE} a été demandée.`,
    `Pour choisir un nouveau mot de passe, suivez ce lien. Il est valable ${validMinutes} minutes et ne sert qu'une fois.`,
  ];
  return {
    to: to.email,
    subject: `Réinitialisation de votre mot de passe ${SITE}`,
    text: `${lines.join('\n\n')}\n\n${link}\n\nSi vous n'êtes pas à l'origine de cette demande, ignorez ce message : votre mot de passe reste inchangé.\n`,
    html: html([...lines, "Si vous n'êtes pas à l'origine de cette demande, ignorez ce message : votre mot de passe reste inchangé."], link, 'Choisir un nouveau mot de passe'),
  };
}

export function failedSignInsMail(to: { name: string; email: string }, failures: number, link: string): Mail {
  const lines = [
    `Bonjour ${to.name},`,
    `${failures} tentatives de connexion à votre compte ${SITE} ont échoué ces 15 dernières minutes.`,
    "Si c'était vous, rien à faire. Sinon, quelqu'un essaie de deviner votre mot de passe : votre compte reste accessible depuis chez vous, mais choisissez un mot de passe long et unique.",
  ];
  return {
    to: to.email,
    subject: `Tentatives de connexion à votre compte ${SITE}`,
    text: `${lines.join('\n\n')}\n\n${link}\n`,
    html: html(lines, link, 'Ouvrir le tableau de bord'),
  };
}
