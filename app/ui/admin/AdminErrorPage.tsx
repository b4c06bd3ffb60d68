import { Link } from 'react-router';
import { HOME_PATH } from '~/domain/users/paths';

const ERRORS: Record<number, { title: string; text: string }> = {
  403: { title: 'Accès refusé', text: "Votre rôle ne permet pas d'ouvrir cette page." },
  404: { title: 'Page introuvable', text: "Cette page du tableau de bord n'existe pas." },
};

/** The back office's error page body (French, like every admin screen). */
export function AdminErrorPage({ status }: { status: number }) {
  const { title, text } = ERRORS[status] ?? { title: 'Une erreur est survenue', text: 'Veuillez réessayer dans quelques instants.' };
  return (
    <div className="mx-auto max-w-xl px-4 py-12 text-center" data-testid="admin-error" data-status={status}>
      <h1 className="text-3xl font-bold text-gray-900">{title}</h1>
      <p className="mt-4 text-gray-700">{text}</p>
      <Link to={HOME_PATH} className="mt-8 inline-flex min-h-11 items-center rounded-md bg-brand-700 px-5 py-2.5 font-semibold text-white">
        Retour au tableau de bord
      </Link>
    </div>
  );
}
