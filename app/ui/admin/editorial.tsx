import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { formatParis, timeAgo, withQuery } from '~/domain/revisions/editorial';
import { LANG_LABELS } from '~/domain/content/forms';
import { LANGS, sitePath } from '~/lib/i18n';
import { Notice, primaryButton, secondaryButton } from './Field';

/** The editorial workflow's pieces of an edit screen (ADR 015): state, presence, autosave, preview. */

export interface PresenceView {
  name: string;
  openedAt: string;
  savedAt: string | null;
}

/** "Modifié par X il y a 2 min" (they typed), else "Ouvert par X il y a 5 min". */
export function presenceText(p: PresenceView, now: Date): string {
  return p.savedAt ? `Modifié par ${p.name} ${timeAgo(p.savedAt, now)}` : `Ouvert par ${p.name} ${timeAgo(p.openedAt, now)}`;
}

export function OthersEditing({ others, now }: { others: PresenceView[]; now: string }) {
  if (others.length === 0) return null;
  return (
    <Notice tone="info" title="Quelqu'un d'autre a ouvert cet élément" testId="others-editing">
      <ul>
        {others.map((o) => (
          <li key={o.name}>{presenceText(o, new Date(now))}</li>
        ))}
      </ul>
      <p className="mt-1">Si vous enregistrez tous les deux, la seconde modification sera refusée.</p>
    </Notice>
  );
}

const capitalized = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** `noun`: "cet article", "cette campagne"… (the type's `Editable.noun`). */
export function DraftState({ published, draft, noun }: { published: boolean; draft: { savedByName: string; savedAt: string; publishAt: string | null } | null; noun: string }) {
  if (!draft) {
    return <p className="text-sm text-gray-800">{published ? 'Publié : les visiteurs voient cette version.' : `Brouillon : ${noun} n’est pas visible sur le site.`}</p>;
  }
  return (
    <Notice tone="info" title={draft.publishAt ? `Programmé pour le ${formatParis(draft.publishAt)} (heure de Paris)` : 'Brouillon en cours'} testId="draft-state">
      Brouillon enregistré par {draft.savedByName} le {formatParis(draft.savedAt)}.{' '}
      {published ? 'Les visiteurs voient toujours la version publiée jusqu’à « Publier ».' : `${capitalized(noun)} n’est pas visible sur le site.`}
    </Notice>
  );
}

/** The copy autosaved before a crash or a closed tab, offered back. */
export function CopyOffer({ copy }: { copy: { savedAt: string } | null }) {
  if (!copy) return null;
  return (
    <Notice tone="info" title="Modifications non enregistrées retrouvées" testId="copy-offer">
      Une copie de ce que vous tapiez a été enregistrée automatiquement le {formatParis(copy.savedAt)}.{' '}
      <Link to="?copie=1" className="font-semibold underline">
        Restaurer la copie
      </Link>
    </Notice>
  );
}

export function PreviewLinks({ path, shareUrl, historyPath }: { path: string; shareUrl: string; historyPath: string }) {
  return (
    <section aria-labelledby="preview-heading" className="space-y-3 rounded-xl border border-gray-200 bg-white p-4 shadow-sm">
      <h2 id="preview-heading" className="font-semibold text-gray-900">
        Aperçu et historique
      </h2>
      <ul className="flex flex-wrap gap-3">
        {LANGS.map((lang) => (
          <li key={lang}>
            <a href={withQuery(sitePath(lang, path), { apercu: '1' })} target="_blank" rel="noopener" className={secondaryButton}>
              Aperçu ({LANG_LABELS[lang]})<span className="sr-only"> (nouvel onglet)</span>
            </a>
          </li>
        ))}
        <li>
          <Link to={historyPath} className={secondaryButton}>
            Historique des versions
          </Link>
        </li>
      </ul>
      <div>
        <label htmlFor="share-preview" className="block text-sm font-medium text-gray-900">
          Lien d’aperçu à partager (valable 7 jours, sans compte)
        </label>
        <input id="share-preview" readOnly value={shareUrl} className="mt-1 block min-h-11 w-full rounded-md border border-gray-400 bg-gray-50 px-3 py-2 text-sm text-gray-900" onFocus={(e) => e.currentTarget.select()} />
      </div>
    </section>
  );
}

/** Quiet time after the last keystroke before the copy is saved. */
export const AUTOSAVE_DELAY_MS = 3000;

const AUTOSAVE_ERRORS: Record<string, string> = {
  stale: 'Cet élément a été enregistré par quelqu’un d’autre : la copie automatique est arrêtée. Rechargez la page avant de continuer.',
  newer: 'Une copie plus récente a été enregistrée depuis une autre fenêtre : celle-ci n’est pas enregistrée.',
  tooLarge: 'Le texte est trop long pour la copie automatique.',
};

/**
 * Saves what is typed into the editor's autosave copy after a few quiet seconds (never the
 * published item); one request at a time, carrying the copy number it last got back.
 */
export function useAutosave({ url, initialSeq, initialOthers }: { url: string; initialSeq: number; initialOthers: PresenceView[] }) {
  const seq = useRef(initialSeq);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const busy = useRef(false);
  const stopped = useRef(false);
  const [status, setStatus] = useState('');
  const [others, setOthers] = useState(initialOthers);
  const [now, setNow] = useState(() => new Date().toISOString());

  useEffect(() => () => clearTimeout(timer.current), []);

  async function send(form: HTMLFormElement) {
    if (stopped.current) return;
    if (busy.current) {
      timer.current = setTimeout(() => send(form), AUTOSAVE_DELAY_MS);
      return;
    }
    busy.current = true;
    try {
      const body = new FormData(form);
      body.set('seq', String(seq.current));
      const res = await fetch(url, { method: 'POST', body, headers: { Accept: 'application/json' } });
      const json = (await res.json()) as { ok: boolean; seq?: number; savedAt?: string; error?: string; others?: PresenceView[] };
      if (json.others) setOthers(json.others);
      setNow(new Date().toISOString());
      if (json.ok && json.seq !== undefined) {
        seq.current = json.seq;
        setStatus(`Copie enregistrée automatiquement à ${new Intl.DateTimeFormat('fr-FR', { timeStyle: 'short', timeZone: 'Europe/Paris' }).format(new Date(json.savedAt!))}.`);
      } else {
        if (json.error === 'stale' || json.error === 'newer') stopped.current = true;
        setStatus(AUTOSAVE_ERRORS[json.error ?? ''] ?? 'La copie automatique a échoué.');
      }
    } catch {
      setStatus('La copie automatique a échoué (connexion ?). Vos saisies restent dans la page.');
    } finally {
      busy.current = false;
    }
  }

  const onInput = (form: HTMLFormElement) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => send(form), AUTOSAVE_DELAY_MS);
  };
  return { onInput, status, others, now };
}

export function AutosaveStatus({ status }: { status: string }) {
  return (
    <p role="status" data-testid="autosave-status" className="min-h-6 text-sm text-gray-700">
      {status}
    </p>
  );
}

/** Brouillon / Publier / Programmer: which one was pressed travels as `intent`. */
export function EditorialActions({ published, hasDraft, cancelTo, publishAt, error }: { published: boolean; hasDraft: boolean; cancelTo: string; publishAt: string; error?: string }) {
  return (
    <div className="space-y-4">
      <div className="max-w-sm">
        <label htmlFor="publishAt" className="block text-sm font-medium text-gray-900">
          Date et heure de publication (heure de Paris)
        </label>
        <input
          id="publishAt"
          name="publishAt"
          type="datetime-local"
          defaultValue={publishAt}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'publishAt-error' : 'publishAt-hint'}
          className={`mt-1 block min-h-11 w-full rounded-md border bg-white px-3 py-2 text-base text-gray-900 ${error ? 'border-red-700' : 'border-gray-400'}`}
        />
        {error ? (
          <p id="publishAt-error" className="mt-1 text-sm text-red-800">
            {error}
          </p>
        ) : (
          <p id="publishAt-hint" className="mt-1 text-sm text-gray-600">
            Pour « Programmer » : la publication se fera automatiquement à cette heure.
          </p>
        )}
      </div>
      <div className="flex flex-wrap gap-3">
        <button type="submit" name="intent" value={published ? 'draft' : 'save'} className={secondaryButton}>
          {published ? 'Enregistrer le brouillon' : 'Enregistrer'}
        </button>
        <button type="submit" name="intent" value="publish" className={primaryButton}>
          Publier
        </button>
        <button type="submit" name="intent" value="schedule" className={secondaryButton}>
          Programmer
        </button>
        {hasDraft && (
          <button type="submit" name="intent" value="discard" formNoValidate className={secondaryButton}>
            Abandonner le brouillon
          </button>
        )}
        <Link to={cancelTo} className={secondaryButton}>
          Annuler
        </Link>
      </div>
    </div>
  );
}

/** A draft saved or discarded keeps the editor open: its message, for browsers without JavaScript too (with JavaScript, a toast). */
export function StayNotice({ actionData }: { actionData: { saved?: boolean; toast?: { title: string; description?: string; variant?: string } | null } | undefined }) {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  if (hydrated || !actionData || actionData.saved || !actionData.toast) return null;
  return (
    <Notice tone="success" title={actionData.toast.title}>
      {actionData.toast.description}
    </Notice>
  );
}

/** What `editorialState` (app/routes/admin/editorial/editorial.server.ts) gives an edit screen, with whether the item is published. */
export interface EditorialView {
  id: string;
  seq: number;
  others: PresenceView[];
  copy: { savedAt: string } | null;
  draft: { savedByName: string; savedAt: string; publishAt: string | null } | null;
  publishAtLocal: string;
  noun: string;
  publicPath: string;
  shareUrl: string;
  historyPath: string;
  autosavePath: string;
  published: boolean;
}

/** Above an item's form: its draft state, who else has it open, the autosaved copy, preview and history. */
export function EditorialPanel({ editorial, autosave }: { editorial: EditorialView; autosave: { others: PresenceView[]; now: string } }) {
  return (
    <>
      <DraftState published={editorial.published} draft={editorial.draft} noun={editorial.noun} />
      <OthersEditing others={autosave.others} now={autosave.now} />
      <CopyOffer copy={editorial.copy} />
      {editorial.publicPath ? (
        <PreviewLinks path={editorial.publicPath} shareUrl={editorial.shareUrl} historyPath={editorial.historyPath} />
      ) : (
        <p>
          <Link to={editorial.historyPath} className="font-semibold text-brand-700 underline">
            Historique des versions
          </Link>
        </p>
      )}
    </>
  );
}

/** The form's buttons for an item in the workflow (the `actions` of ContentForm). */
export function EditorialFormActions({ editorial, cancelTo, publishAt, error, status }: { editorial: EditorialView; cancelTo: string; publishAt?: string; error?: string; status: string }) {
  return (
    <>
      <input type="hidden" name="draftSavedAt" value={editorial.draft?.savedAt ?? ''} />
      <EditorialActions published={editorial.published} hasDraft={Boolean(editorial.draft)} cancelTo={cancelTo} publishAt={publishAt ?? editorial.publishAtLocal} error={error} />
      <AutosaveStatus status={status} />
    </>
  );
}
