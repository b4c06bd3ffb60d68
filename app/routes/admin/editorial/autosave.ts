import { data } from 'react-router';
import type { Route } from './+types/autosave';
import { autosave, othersEditing } from '~/domain/revisions/autosave.server';
import { editableAt } from '~/domain/revisions/registry.server';
import { requireUser } from '~/routes/admin/auth.server';
import { db } from '~/lib/runtime.server';

/** Fields of the posted form that are not the item's (the workflow's own). */
const CONTROL = new Set(['version', 'seq', 'intent', 'draftSavedAt', 'publishAt']);

/**
 * POST <list>/<id>/autosave: the editor's form as typed, saved as their copy (never the item
 * itself). Answers JSON: the new copy number, or why it was refused, and who else has it open.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const found = editableAt(new URL(request.url).pathname);
  if (!found) throw data('Introuvable', { status: 404 });
  const { ed, id } = found;
  const me = await requireUser(request, context, { area: ed.area });
  const form = await request.formData();
  const version = Number(form.get('version'));
  const seq = Number(form.get('seq'));
  if (!Number.isInteger(version) || !Number.isInteger(seq) || seq < 0) return data({ ok: false, error: 'invalid' }, { status: 400 });
  const live = await ed.read(db(), id);
  if (!live) return data({ ok: false, error: 'notFound' }, { status: 404 });
  const values: Record<string, string> = {};
  for (const [k, v] of form) if (typeof v === 'string' && !CONTROL.has(k)) values[k] = v;
  const ref = { type: ed.type, id };
  const draftSavedAt = String(form.get('draftSavedAt') ?? '');
  const result = await autosave(db(), ref, { id: me.id, name: me.name }, { values, version, draftSavedAt, seq, liveVersion: live.version });
  const others = await othersEditing(db(), ref, me.id);
  return data({ ...result, others }, { status: result.ok ? 200 : 409 });
}

export function loader() {
  throw data('Méthode non autorisée', { status: 405 });
}
