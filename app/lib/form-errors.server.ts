import { data } from 'react-router';

/**
 * A refused form's answer, once (issue 39): each screen keeps its own body (errors, values,
 * toast…), built with form-errors.ts's issueErrors and fixFieldsToast, re-exported here.
 */
export { firstKey, fixFieldsToast, issueErrors, type FieldErrors } from './form-errors';

/** The answer to a refused form: its body, with status 400 unless another is given, and any headers. */
export function formError<T>(body: T, status = 400, headers?: Record<string, string>) {
  return data(body, headers ? { status, headers } : { status });
}
