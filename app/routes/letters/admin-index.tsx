import { redirect } from 'react-router';

/** /admin/lettres: the news list's screens start with its subscribers. */
export function loader() {
  return redirect('/admin/lettres/abonnes');
}
