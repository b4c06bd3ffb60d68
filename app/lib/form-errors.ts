/**
 * A refused form's errors, once (issue 39): the field errors a schema's issues make and the toast
 * of a form whose fields were refused. No HTTP here (the domain and the browser use it too); the
 * answer itself, with its status, is form-errors.server.ts's formError.
 */

/** A field's name → its first message: the shape every form shows beside its fields. */
export type FieldErrors = Record<string, string>;

interface Issue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

const dotted = (path: readonly PropertyKey[]) => path.join('.');

/**
 * The first message of each field a schema refused (Zod's `error.issues`), keyed by the field's
 * dotted path ('stripe.products.0.name'), or by `keyOf` when a screen shows them elsewhere.
 */
export function issueErrors(issues: readonly Issue[], keyOf: (path: readonly PropertyKey[]) => string = dotted): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) errors[keyOf(issue.path)] ??= issue.message;
  return errors;
}

/** The toast of a form not saved because of its fields: "{title}. Corrigez les champs signalés." */
export const fixFieldsToast = (title: string) => ({ title, description: 'Corrigez les champs signalés.', variant: 'destructive' as const });

/** Keys a flat form's errors by the field alone (`String(path[0])`), as the letters' screens always did. */
export const firstKey = (path: readonly PropertyKey[]) => String(path[0]);
