import { Link, redirect } from 'react-router';
import type { Route } from './+types/nature';
import { donationDeps } from '~/domain/donations/deps.server';
import { natureGiftSchema, NATURE_MEANS, basisLabel, type NatureMeans } from '~/domain/offline-gifts/nature-form';
import { recordNatureGift, type Evidence } from '~/domain/offline-gifts/nature.server';
import { offlineGiftLines } from '~/domain/offline-gifts/gifts.server';
import { NATURE_LABELS, natureOfMeans } from '~/domain/receipts/nature';
import { fixFieldsToast, formError, issueErrors } from '~/lib/form-errors.server';
import { actorOf } from '~/routes/admin/auth.server';
import { Notice } from '~/ui/admin/Field';
import { useToast } from '~/ui/admin/hooks';
import { DonorSearch, lineView } from '~/ui/admin/offline-gifts';
import { NATURE_TITLES, NatureChoice, NatureGiftForm, NatureLines } from '~/ui/admin/gifts-in-kind';
import { db, entryState, giftsAdmin, giftsUser, recordedNotice, today, voidGift, type FormAnswer } from './admin.server';

const PATH = '/admin/cheques/nature';
const evidencePath = (id: string) => `${PATH}/${id}/justificatif`;
const meansOf = (v: string | null | undefined): NatureMeans => (NATURE_MEANS as readonly string[]).includes(v ?? '') ? (v as NatureMeans) : 'in_kind';

/** Gifts in kind and a volunteer's waived expenses, one at a time, and the latest so recorded (ADR 030). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { admin } = await giftsUser(request, context);
  const url = new URL(request.url);
  const lines = await offlineGiftLines(db(), null, 50, true);
  return {
    means: meansOf(url.searchParams.get('type')),
    notice: recordedNotice(url, lines),
    entry: await entryState(url),
    lines: lines.map((l) => ({ ...lineView(l, admin), nature: NATURE_LABELS[natureOfMeans(l.means)], description: l.description, basis: [basisLabel(l.basis), l.basisDetail].filter(Boolean).join(' — '), evidence: l.evidence })),
  };
}

/** The form's fields as text, and the evidence file (if one was sent). */
async function formAndFile(request: Request): Promise<{ form: Record<string, string>; evidence: Evidence | null }> {
  const data = await request.formData();
  const form: Record<string, string> = {};
  let evidence: Evidence | null = null;
  for (const [k, v] of data.entries()) {
    if (typeof v === 'string') form[k] = v;
    else if (k === 'evidence' && v.size > 0) evidence = { fileName: v.name, data: Buffer.from(await v.arrayBuffer()) };
  }
  return { form, evidence };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { form, evidence } = await formAndFile(request);
  if (form.intent === 'void') return voidGift(request, await giftsAdmin(request, context), form);
  const { user } = await giftsUser(request, context);
  const title = 'Don non enregistré';
  const parsed = natureGiftSchema(today()).safeParse(form);
  if (!parsed.success) return formError<FormAnswer>({ errors: issueErrors(parsed.error.issues), values: form, toast: fixFieldsToast(title) });
  const r = await recordNatureGift(await donationDeps(request), actorOf(user), parsed.data, evidence);
  if (r.status === 'invalid') return formError<FormAnswer>({ errors: r.errors, values: form, toast: fixFieldsToast(title) });
  throw redirect(`${PATH}?type=${parsed.data.means}&ok=${r.status === 'recorded' ? r.payment.id : 'deja'}`);
}

export const meta: Route.MetaFunction = () => [{ title: 'Don en nature ou abandon de frais | Chèques et virements | Administration' }, { name: 'robots', content: 'noindex' }];

export default function NatureGiftScreen({ loaderData, actionData }: Route.ComponentProps) {
  const { means: chosen, notice, entry, lines } = loaderData;
  const errors = actionData?.errors ?? {};
  // A refused form comes back with the nature it was sent with.
  const means = meansOf(actionData?.values?.means ?? chosen);
  useToast(actionData?.toast);
  return (
    <div className="max-w-4xl space-y-6">
      <p><Link to="/admin/cheques" className="underline">← Chèques et virements</Link></p>
      <h1 className="text-3xl font-bold text-gray-900">Don en nature ou abandon de frais</h1>
      <p className="text-gray-700">Des biens donnés, ou les frais qu’un bénévole a engagés pour la fondation et auxquels il renonce : valorisés en euros, ils reçoivent un reçu fiscal « Nature du don : {NATURE_TITLES[means].toLowerCase()} » et restent comptés à part des dons en argent.</p>
      <NatureChoice means={means} path={PATH} />
      {notice && <Notice tone="success" title={notice} />}
      {actionData?.toast && <Notice tone={actionData.toast.variant === 'destructive' ? 'error' : 'success'} title={actionData.toast.title}>{actionData.toast.description}</Notice>}
      <DonorSearch entry={entry} path={PATH} keep={{ type: means }} />
      <NatureGiftForm entry={entry} means={means} errors={errors} values={actionData?.values} />
      <section className="space-y-3">
        <h2 className="text-xl font-bold text-gray-900">Derniers dons saisis</h2>
        {lines.length === 0 ? <p className="text-gray-700">Aucun don en nature ni abandon de frais saisi.</p> : <NatureLines lines={lines} errors={errors} evidencePath={evidencePath} />}
      </section>
    </div>
  );
}
