import type { z } from 'zod';
import { CONFLICT } from '~/domain/content/forms';
import { fieldErrors, formValues } from '~/domain/users/schemas';
import { formError } from '~/lib/form-errors.server';
import type { ServerToast } from '~/ui/site/ToastRegion';

export interface FormResult {
  saved: boolean;
  errors: Record<string, string>;
  /** What was typed, shown again when the save failed (nothing typed is lost). */
  values: Record<string, string> | null;
  toast: ServerToast | null;
}

/** Reads a posted form against its schema: the parsed data, or a 400 answer with French field errors. */
export async function readForm<S extends z.ZodType>(request: Request, schema: S) {
  const values = formValues(await request.formData());
  const parsed = schema.safeParse(values);
  const version = Number(values.version ?? 0);
  if (!parsed.success) return { values, version, failure: failed(400, fieldErrors(parsed.error), values) } as const;
  return { values, version, data: parsed.data as z.infer<S> } as const;
}

export function failed(status: number, errors: Record<string, string>, values: Record<string, string>) {
  return formError<FormResult>({ saved: false, errors, values, toast: null }, status);
}

/** Someone saved the item since this form was opened: nothing is written, what was typed stays. `who`: "Modifié par X il y a 2 min." */
export function conflict(values: Record<string, string>, who?: string) {
  return failed(409, { form: who ? `${CONFLICT} ${who}` : CONFLICT }, values);
}

export function saved(title: string, description?: string): FormResult {
  return { saved: true, errors: {}, values: null, toast: { title, description, variant: 'success' } };
}
