import { Link } from 'react-router';
import type { Route } from './+types/single';
import { offlineGiftLines } from '~/domain/offline-gifts/gifts.server';
import { Notice } from '~/ui/admin/Field';
import { useToast } from '~/ui/admin/hooks';
import { DonorSearch, GiftEntryForm, GiftLines, lineView } from '~/ui/admin/offline-gifts';
import { db, entryState, formOf, giftsAdmin, giftsUser, recordGift, recordedNotice, voidGift } from './admin.server';

const PATH = '/admin/cheques/don';

/** A transfer or cash received, one gift at a time, and the latest gifts so recorded (ADR 028). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { admin } = await giftsUser(request, context);
  const url = new URL(request.url);
  const lines = await offlineGiftLines(db(), null, 50);
  return { notice: recordedNotice(url, lines), entry: await entryState(url), lines: lines.map((l) => lineView(l, admin)) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await formOf(request);
  if (form.intent === 'void') return voidGift(request, await giftsAdmin(request, context), form);
  const { user } = await giftsUser(request, context);
  return recordGift(request, user, form, 'single', null, PATH);
}

export const meta: Route.MetaFunction = () => [{ title: 'Virement ou espèces | Chèques et virements | Administration' }, { name: 'robots', content: 'noindex' }];

export default function SingleGiftScreen({ loaderData, actionData }: Route.ComponentProps) {
  const { notice, entry, lines } = loaderData;
  const errors = actionData?.errors ?? {};
  useToast(actionData?.toast);
  return (
    <div className="max-w-4xl space-y-6">
      <p><Link to="/admin/cheques" className="underline">← Chèques et virements</Link></p>
      <h1 className="text-3xl font-bold text-gray-900">Virement ou espèces</h1>
      {notice && <Notice tone="success" title={notice} />}
      {actionData?.toast && <Notice tone={actionData.toast.variant === 'destructive' ? 'error' : 'success'} title={actionData.toast.title}>{actionData.toast.description}</Notice>}
      <DonorSearch entry={entry} path={PATH} />
      <GiftEntryForm entry={entry} means="single" errors={errors} values={actionData?.values} submitLabel="Enregistrer le don" />
      <section className="space-y-3">
        <h2 className="text-xl font-bold text-gray-900">Derniers dons saisis</h2>
        {lines.length === 0 ? <p className="text-gray-700">Aucun don saisi.</p> : <GiftLines caption="Derniers virements et espèces saisis" lines={lines} errors={errors} cheques={false} />}
      </section>
    </div>
  );
}
