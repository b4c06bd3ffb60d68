import { data, Form, Link, redirect } from 'react-router';
import type { Route } from './+types/admin-letter';
import { audienceOf, type Audience, type LetterVersions, editable, letterErrors, letterFormValues, letterSchema, LETTER_STATE_LABELS, pausable, resumable, versionsOf, writtenLanguages } from '~/domain/letters/letter';
import { footerOf, getLetter, letterMail, pauseByAdmin, resumeLetter, schedule, sendNow, updateLetter } from '~/domain/letters/letters.server';
import { queueCounts } from '~/domain/letters/queue.server';
import { audienceErrors, segmentChoices } from '~/domain/letters/audience.server';
import { LETTER_TYPE } from '~/domain/letters/editable.server';
import { timeAgo } from '~/domain/revisions/editorial';
import { listRevisions } from '~/domain/revisions/revisions.server';
import { isLang, LANGS } from '~/lib/i18n';
import { mailConfigFor, sendMail } from '~/lib/mail.server';
import { trustedOrigin } from '~/lib/origin.server';
import { db, runtime } from '~/lib/runtime.server';
import { actorOf, requireUser } from '~/routes/admin/auth.server';
import { inputClass, Notice, primaryButton, secondaryButton, dangerButton } from '~/ui/admin/Field';
import { LANG_NAMES, LetterFields } from '~/ui/admin/letters';

/**
 * /admin/lettres/:id: a draft is edited, previewed, tried on oneself, sent now or scheduled; once
 * sending, the page shows its progress and counts, and lets it be paused and resumed (ADR 022).
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUser(request, context, { area: 'letters' });
  const letter = await getLetter(db(), params.id);
  if (!letter) throw data('Lettre introuvable', { status: 404 });
  const counts = await queueCounts(db(), letter.id);
  const url = new URL(request.url);
  return { letter, counts, me: user.email, languages: writtenLanguages(letter.versions), notice: url.searchParams.get('ok'), segments: await segmentChoices(db()) };
}

/** "modifiée par X il y a 2 min", from the letter's last revision. */
async function lastChange(id: string, now = new Date()): Promise<string> {
  const [last] = await listRevisions(db(), { type: LETTER_TYPE, id });
  return last ? `par ${last.authorName} ${timeAgo(last.createdAt, now)}` : 'par quelqu’un d’autre';
}

const NOTICES: Record<string, string> = {
  saved: 'Brouillon enregistré.',
  created: 'Lettre créée : relisez-la, prévisualisez-la, puis envoyez-la.',
  test: 'Essai envoyé à votre adresse.',
  sending: 'Envoi lancé : les courriels partent en arrière-plan, au rythme réglé.',
  scheduled: 'Envoi programmé.',
  paused: 'Envoi mis en pause.',
  resumed: 'Envoi repris.',
};

export async function action({ request, context, params }: Route.ActionArgs) {
  const user = await requireUser(request, context, { area: 'letters' });
  const actor = actorOf(user);
  const form = await request.formData();
  const intent = String(form.get('intent') ?? '');
  const back = (ok: string) => redirect(`/admin/lettres/${params.id}?ok=${ok}`, 303);
  const refused = (error: string, status = 409) => data({ error, errors: {} as Record<string, string> }, { status });
  const letter = await getLetter(db(), params.id);
  if (!letter) throw data('Lettre introuvable', { status: 404 });

  const seen = Number(form.get('version'));
  // Someone else saved since this page was opened: say who and when; nothing is written.
  const stale = async () => `Cette lettre a été modifiée entre-temps (${await lastChange(letter.id)}) : rien n’a été enregistré. Rechargez la page pour voir sa dernière version.`;
  if (intent === 'save') {
    const parsed = letterSchema.safeParse(letterFormValues(form));
    if (!parsed.success) return data({ error: 'La lettre n’a pas été enregistrée : corrigez les champs signalés.', errors: letterErrors(parsed.error) }, { status: 400 });
    const versions = versionsOf(parsed.data);
    const audience = audienceOf(parsed.data);
    const wrong = await audienceErrors(db(), audience);
    if (Object.keys(wrong).length) return data({ error: 'La lettre n’a pas été enregistrée : corrigez les champs signalés.', errors: wrong }, { status: 400 });
    const r = await updateLetter(db(), actor, letter.id, versions, audience, seen);
    if (r === 'conflict') return data({ error: await stale(), errors: {} as Record<string, string>, typed: { versions, audience } }, { status: 409 });
    return r === 'ok' ? back('saved') : refused('L’envoi a commencé : la lettre ne peut plus être modifiée.');
  }
  if (intent === 'test') {
    const origin = trustedOrigin(request);
    const lang = String(form.get('testLang') ?? 'fr');
    if (!origin) return refused('L’adresse publique du site (PUBLIC_URL) n’est pas configurée : les liens de la lettre ne peuvent pas être écrits.');
    const mail = await letterMail(letter, { id: 'essai', email: user.email, language: isLang(lang) ? lang : 'fr' }, { origin, appSecret: runtime().secret }, await footerOf(db()), '[Essai] ');
    const sent = await sendMail(db(), mailConfigFor(runtime().env, origin), mail);
    return sent.status === 'failed' ? refused(`L’essai n’a pas pu être envoyé : ${sent.error}`, 502) : back('test');
  }
  if (intent === 'send') {
    const r = await sendNow(db(), actor, letter.id, new Date(), seen);
    if (r === 'conflict') return refused(await stale());
    return r === 'ok' ? back('sending') : refused('Cette lettre est déjà en cours d’envoi ou envoyée.');
  }
  if (intent === 'schedule') {
    const at = new Date(`${String(form.get('scheduledAt') ?? '')}:00Z`);
    if (Number.isNaN(at.getTime())) return refused('Indiquez la date et l’heure de l’envoi.', 400);
    const r = await schedule(db(), actor, letter.id, at);
    if (r === 'past') return refused('Cette date est passée : choisissez un moment à venir.', 400);
    return r === 'ok' ? back('scheduled') : refused('Cette lettre est déjà en cours d’envoi ou envoyée.');
  }
  if (intent === 'pause') return (await pauseByAdmin(db(), actor, letter.id)) ? back('paused') : refused('Cette lettre n’est pas en cours d’envoi.');
  if (intent === 'resume') return (await resumeLetter(db(), actor, letter.id)) ? back('resumed') : refused('Cette lettre n’est pas en pause.');
  return refused('Action inconnue.', 400);
}

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `${loaderData?.letter.versions.fr.subject ?? 'Lettre'} | Administration` }, { name: 'robots', content: 'noindex' }];

const dateTime = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

export default function LetterScreen({ loaderData, actionData }: Route.ComponentProps) {
  const { letter, counts, me, languages, notice, segments } = loaderData;
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const done = counts.sent + counts.failed + counts.unknown + counts.skipped;
  const percent = total ? Math.round((done / total) * 100) : 0;
  const okText = notice ? NOTICES[notice] : undefined;
  // A refused stale save keeps what was typed.
  const typed = actionData && 'typed' in actionData ? (actionData.typed as { versions: LetterVersions; audience: Audience }) : undefined;
  return (
    <div className="space-y-6">
      <div>
        <div className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
          <Link to="/admin/lettres" className="text-brand-800 underline">← Lettres d’information</Link>
          <Link to={`/admin/lettres/${letter.id}/historique`} className="text-brand-800 underline">Historique des modifications</Link>
        </div>
        <h1 className="mt-2 break-words text-3xl font-bold text-gray-900">{letter.versions.fr.subject}</h1>
        <p className="mt-1 text-gray-700" data-testid="letter-state">
          {LETTER_STATE_LABELS[letter.status]}
          {letter.scheduledAt ? ` : le ${dateTime.format(new Date(letter.scheduledAt))} (UTC)` : ''}
          {letter.sentAt ? ` le ${dateTime.format(new Date(letter.sentAt))} (UTC)` : ''}
        </p>
      </div>
      {okText && !actionData && <Notice tone="success" title={okText} testId="letter-notice" />}
      {actionData?.error && <Notice tone="error" title={actionData.error} />}
      {letter.pauseReason && letter.status === 'paused' && <Notice tone="error" title="Envoi en pause" testId="pause-reason">{letter.pauseReason}</Notice>}

      <section aria-labelledby="preview-title" className="space-y-3 rounded-lg border border-gray-200 bg-white p-4">
        <h2 id="preview-title" className="text-xl font-semibold text-gray-900">Aperçu et essai</h2>
        <ul className="flex flex-wrap gap-3">
          {LANGS.map((l) => (
            <li key={l}>
              <a href={`/admin/lettres/${letter.id}/apercu/${l}`} target="_blank" rel="noopener" className={secondaryButton}>
                Aperçu {LANG_NAMES[l]}{languages.includes(l) ? '' : ' (version française)'}
              </a>
            </li>
          ))}
        </ul>
        <Form method="post" className="flex flex-wrap items-end gap-3">
          <input type="hidden" name="intent" value="test" />
          <div>
            <label htmlFor="testLang" className="block text-sm font-medium text-gray-900">Langue de l’essai</label>
            <select id="testLang" name="testLang" className={inputClass(false)}>
              {LANGS.map((l) => <option key={l} value={l}>{LANG_NAMES[l]}</option>)}
            </select>
          </div>
          <button type="submit" className={secondaryButton}>M’envoyer un essai ({me})</button>
        </Form>
      </section>

      {total > 0 && (
        <section aria-labelledby="progress-title" className="space-y-3 rounded-lg border border-gray-200 bg-white p-4">
          <h2 id="progress-title" className="text-xl font-semibold text-gray-900">Progression</h2>
          <progress max={total} value={done} aria-label={`Progression de l’envoi : ${percent} %`} className="h-4 w-full" />
          <p>{percent} % ({done} sur {total})</p>
          <dl className="grid gap-3 sm:grid-cols-3 lg:grid-cols-5" data-testid="letter-counts">
            {[
              ['À envoyer', counts.queued + counts.claimed, 'queued'],
              ['Envoyés', counts.sent, 'sent'],
              ['Échecs', counts.failed, 'failed'],
              ['Issue inconnue (jamais renvoyés)', counts.unknown, 'unknown'],
              ['Désabonnés ou bloqués entre-temps', counts.skipped, 'skipped'],
            ].map(([label, n, key]) => (
              <div key={key} className="rounded-md bg-gray-50 p-3">
                <dt className="text-sm text-gray-700">{label}</dt>
                <dd className="text-2xl font-bold text-gray-900" data-testid={`letter-count-${key}`}>{n}</dd>
              </div>
            ))}
          </dl>
          <div className="flex flex-wrap gap-3">
            <Link to={`/admin/lettres/${letter.id}`} className={secondaryButton}>Actualiser</Link>
            {pausable(letter.status) && (
              <Form method="post"><input type="hidden" name="intent" value="pause" /><button type="submit" className={dangerButton}>Mettre en pause</button></Form>
            )}
            {resumable(letter.status) && (
              <Form method="post"><input type="hidden" name="intent" value="resume" /><button type="submit" className={primaryButton}>Reprendre l’envoi</button></Form>
            )}
          </div>
        </section>
      )}

      {editable(letter.status) && (
        <>
          <section aria-labelledby="send-title" className="space-y-3 rounded-lg border border-gray-200 bg-white p-4">
            <h2 id="send-title" className="text-xl font-semibold text-gray-900">Envoi</h2>
            <p className="text-gray-700">Les abonnés confirmés choisis ci-dessous la recevront, chacun dans sa langue (en français si sa version n’est pas écrite). Enregistrez vos changements avant d’envoyer.</p>
            <div className="flex flex-wrap items-end gap-6">
              <Form method="post">
                <input type="hidden" name="intent" value="send" />
                <input type="hidden" name="version" value={letter.version} />
                <button type="submit" className={primaryButton}>Envoyer maintenant</button>
              </Form>
              <Form method="post" className="flex flex-wrap items-end gap-3">
                <input type="hidden" name="intent" value="schedule" />
                <div>
                  <label htmlFor="scheduledAt" className="block text-sm font-medium text-gray-900">Date et heure (UTC)</label>
                  <input id="scheduledAt" name="scheduledAt" type="datetime-local" required className={inputClass(false)} />
                </div>
                <button type="submit" className={secondaryButton}>Programmer</button>
              </Form>
            </div>
          </section>
          <Form method="post" className="space-y-6">
            <h2 className="text-xl font-semibold text-gray-900">Contenu</h2>
            <input type="hidden" name="intent" value="save" />
            <input type="hidden" name="version" value={letter.version} />
            <LetterFields key={letter.version} versions={typed?.versions ?? letter.versions} audience={typed?.audience ?? letter.audience} errors={actionData?.errors ?? {}} segments={segments} />
            <button type="submit" className={primaryButton}>Enregistrer le brouillon</button>
          </Form>
        </>
      )}
    </div>
  );
}
