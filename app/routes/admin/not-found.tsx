import { data } from 'react-router';

/** Any other /admin path, once the guard let it through: a 404 inside the back office. */
export function loader() {
  throw data('Page introuvable', { status: 404 });
}

export default function AdminNotFound() {
  return null;
}
