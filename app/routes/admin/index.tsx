import { redirect } from 'react-router';
import { HOME_PATH } from '~/domain/users/paths';

export function loader() {
  throw redirect(HOME_PATH);
}
