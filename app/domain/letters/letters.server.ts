import { randomUUID } from 'node:crypto';
import { putSettingDocument, readSettingDocument } from '~/lib/settings-document.server';
import type { DB } from '~db/index';
import { audit, type Actor } from '~/domain/audit/audit.server';
import { recordRevision } from '~/domain/revisions/revisions.server';
import { toPost } from '~/domain/blog/posts.server';
import { cleanVersions } from './rich.server';
import { PUBLISHED } from '~/domain/blog/posts';
import { CONTACT_FALLBACKS } from '~/domain/settings/site-settings';
import { getSiteSettings } from '~/domain/settings/site-settings.server';
import { unsubscribePath } from '~/domain/subscribers/mails.server';
import { unsubscribeToken } from '~/domain/subscribers/unsubscribe-token.server';
import type { Subscriber } from '~/domain/subscribers/subscribers.server';
import type { Lang } from '~/lib/i18n';
import type { Mail } from '~/lib/mail.server';
import { DEFAULT_RATE, editable, rateSchema, versionFor, type Audience, type LetterState, type LetterVersions, type SendingRate } from './letter';
import { enqueue, queueCounts, type QueueCounts } from './queue.server';
import { absoluteUrl, renderLetter, type RenderedLetter } from './render.server';
import { mailtoSubject } from './leaving.server';
import { LETTER_TYPE, letterSnapshot, writeLetterContent } from './editable.server';
import { fromHeader } from './sender';
import { syncSources } from './sources.server';
import { getSender } from './sender.server';

/** Letters (ADR 022): written in the back office, or made from a published post. */
export interface Letter {
  id: string;
  versions: LetterVersions;
  postId: string | null;
  audience: Audience;
  status: LetterState;
  /** Raised by each save of the content: a form carries it, a stale one is refused. */
  version: number;
  scheduledAt: string | null;
  pauseReason: string | null;
  createdAt: string;
  updatedAt: string;
  sentAt: string | null;
}

type Row = { id: string; versions: string; post_id: string | null; audience_language: string; audience_source: string; audience_segment: string; status: string; version: number; scheduled_at: string | null; pause_reason: string | null; created_at: string; updated_at: string; sent_at: string | null };

const toLetter = (r: Row): Letter => ({
  id: r.id,
  versions: JSON.parse(r.versions) as LetterVersions,
  postId: r.post_id,
  audience: { language: r.audience_language as Audience['language'], source: r.audience_source as Audience['source'], segment: r.audience_segment },
  status: r.status as LetterState,
  version: Number(r.version),
  scheduledAt: r.scheduled_at,
  pauseReason: r.pause_reason,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  sentAt: r.sent_at,
});

export async function getLetter(db: DB, id: string): Promise<Letter | undefined> {
  const r = await db.selectFrom('letters').selectAll().where('id', '=', id).executeTakeFirst();
  return r && toLetter(r);
}

export async function listLetters(db: DB, limit = 200): Promise<(Letter & { counts: QueueCounts })[]> {
  const rows = await db.selectFrom('letters').selectAll().orderBy('created_at', 'desc').orderBy('id').limit(limit).execute();
  return Promise.all(rows.map(async (r) => ({ ...toLetter(r), counts: await queueCounts(db, r.id) })));
}

export async function createLetter(db: DB, actor: Actor, written: LetterVersions, audience: Audience, postId: string | null = null, now = new Date()): Promise<string> {
  const versions = cleanVersions(written);
  const id = randomUUID();
  const at = now.toISOString();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('letters')
      .values({ id, versions: JSON.stringify(versions), post_id: postId, audience_language: audience.language, audience_source: audience.source, audience_segment: audience.segment ?? '', status: 'draft', version: 1, scheduled_at: null, pause_reason: null, created_by: actor.id ?? '', created_at: at, updated_at: at, sent_at: null })
      .execute();
    await recordRevision(trx, { type: LETTER_TYPE, id }, letterSnapshot(versions, audience), actor, 'create');
    await audit(trx, actor, 'letter.created', id, { subject: versions.fr.subject });
  });
  return id;
}

/**
 * Saves a draft (or a scheduled letter, which stays scheduled) opened at `version`, with a
 * revision (ADR 015): 'conflict' when someone saved it since (nothing written), 'locked' once
 * sending started.
 */
export async function updateLetter(db: DB, actor: Actor, id: string, written: LetterVersions, audience: Audience, version: number, now = new Date()): Promise<'ok' | 'locked' | 'conflict'> {
  const versions = cleanVersions(written);
  return db.transaction().execute(async (trx) => {
    const out = await writeLetterContent(trx, id, letterSnapshot(versions, audience), version, now);
    if (out !== 'ok') {
      const current = await getLetter(trx, id);
      return !current || !editable(current.status) ? ('locked' as const) : ('conflict' as const);
    }
    await recordRevision(trx, { type: LETTER_TYPE, id }, letterSnapshot(versions, audience), actor, 'save');
    await audit(trx, actor, 'letter.updated', id, { subject: versions.fr.subject, version: version + 1 });
    return 'ok' as const;
  });
}

/**
 * A letter's versions from a published post: its title, summary, image and link, in each language
 * the post has a title in.
 */
export async function versionsFromPost(db: DB, postId: string): Promise<LetterVersions | undefined> {
  const row = await db.selectFrom('blog_posts').selectAll().where('id', '=', postId).where('status', '=', PUBLISHED).executeTakeFirst();
  if (!row) return undefined;
  const post = toPost(row);
  const version = (l: Lang) => {
    const tr = post.translations[l];
    return tr?.title?.trim() ? { subject: tr.title.trim(), body: (tr.excerpt ?? '').trim() || tr.title.trim(), link: `/blog/${post.id}`, image: post.image.startsWith('/media/') ? post.image : '' } : undefined;
  };
  const fr = version('fr');
  if (!fr) return undefined;
  const out: LetterVersions = { fr };
  for (const l of ['en', 'es'] as const) {
    const v = version(l);
    if (v) out[l] = v;
  }
  return out;
}

/** Published posts a letter can be made from, newest first (their French title). */
export async function postChoices(db: DB): Promise<{ id: string; title: string }[]> {
  const rows = await db.selectFrom('blog_posts').select(['id', 'translations']).where('status', '=', PUBLISHED).orderBy('date', 'desc').limit(100).execute();
  return rows.map((r) => ({ id: r.id, title: (JSON.parse(r.translations) as Record<string, { title?: string }>).fr?.title ?? r.id }));
}

/**
 * "Envoyer maintenant": the audience is fixed now (donors and members who consented since the
 * letters' job last looked join first, sources.server.ts) and the
 * letter is handed to the background sending; the request sends nothing itself.
 */
export async function sendNow(db: DB, actor: Actor, id: string, now = new Date(), seenVersion?: number): Promise<'ok' | 'locked' | 'conflict'> {
  const letter = await getLetter(db, id);
  if (!letter || !editable(letter.status)) return 'locked';
  await syncSources(db, now);
  let start = db.updateTable('letters').set({ status: 'sending', scheduled_at: null, updated_at: now.toISOString() }).where('id', '=', id).where('status', 'in', ['draft', 'scheduled']);
  // The page's button sends only the content it showed: saved by someone else since, it is refused.
  if (seenVersion !== undefined) start = start.where('version', '=', seenVersion);
  const r = await start.executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) {
    const current = await getLetter(db, id);
    return current && editable(current.status) ? 'conflict' : 'locked';
  }
  const queued = await enqueue(db, id, letter.audience, now);
  await audit(db, actor, 'letter.sent', id, { subject: letter.versions.fr.subject, queued });
  return 'ok';
}

export async function schedule(db: DB, actor: Actor, id: string, at: Date, now = new Date()): Promise<'ok' | 'locked' | 'past'> {
  if (at.getTime() <= now.getTime()) return 'past';
  const r = await db.updateTable('letters').set({ status: 'scheduled', scheduled_at: at.toISOString(), updated_at: now.toISOString() }).where('id', '=', id).where('status', 'in', ['draft', 'scheduled']).executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) return 'locked';
  await audit(db, actor, 'letter.scheduled', id, { at: at.toISOString() });
  return 'ok';
}

/** Scheduled letters whose time came start sending (the background job calls this). Returns how many. */
export async function startDueLetters(db: DB, now = new Date()): Promise<number> {
  const due = await db.selectFrom('letters').selectAll().where('status', '=', 'scheduled').where('scheduled_at', '<=', now.toISOString()).execute();
  let started = 0;
  // Donors and members who consented since the last pass join before the audiences are fixed.
  if (due.length) await syncSources(db, now);
  for (const row of due) {
    const r = await db.updateTable('letters').set({ status: 'sending', updated_at: now.toISOString() }).where('id', '=', row.id).where('status', '=', 'scheduled').executeTakeFirst();
    // Another instance started it: it enqueues, not this one (enqueueing twice would add nothing anyway).
    if (Number(r.numUpdatedRows) !== 1) continue;
    await enqueue(db, row.id, toLetter(row).audience, now);
    started++;
  }
  return started;
}

export async function pauseLetter(db: DB, id: string, reason: string, now = new Date()): Promise<boolean> {
  const r = await db.updateTable('letters').set({ status: 'paused', pause_reason: reason, updated_at: now.toISOString() }).where('id', '=', id).where('status', '=', 'sending').executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function resumeLetter(db: DB, actor: Actor, id: string, now = new Date()): Promise<boolean> {
  const r = await db.updateTable('letters').set({ status: 'sending', pause_reason: null, updated_at: now.toISOString() }).where('id', '=', id).where('status', '=', 'paused').executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) return false;
  await audit(db, actor, 'letter.resumed', id);
  return true;
}

export async function pauseByAdmin(db: DB, actor: Actor, id: string): Promise<boolean> {
  if (!(await pauseLetter(db, id, `Mise en pause par ${actor.name}.`))) return false;
  await audit(db, actor, 'letter.paused', id);
  return true;
}

/** A sending letter whose queue is settled is sent. */
export async function markLetterSent(db: DB, id: string, now = new Date()): Promise<boolean> {
  const r = await db.updateTable('letters').set({ status: 'sent', sent_at: now.toISOString(), updated_at: now.toISOString() }).where('id', '=', id).where('status', '=', 'sending').executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function sendingLetterIds(db: DB): Promise<string[]> {
  return (await db.selectFrom('letters').select('id').where('status', '=', 'sending').orderBy('created_at').execute()).map((r) => r.id);
}

// ---- The mail itself ---------------------------------------------------------------------------

export interface LetterSite {
  /** PUBLIC_URL: letters are sent only with a trusted origin (their links must be absolute). */
  origin: string;
  appSecret: string;
}

export interface LetterFooter {
  /** The foundation's postal address, at the foot of every letter. */
  address: string;
  /** The List-Unsubscribe mailto's mailbox: the sender's, else the contact address. */
  mailbox: string;
  /** The From header the Admin set; undefined: MAIL_FROM. */
  from?: string;
  /** The sender's name, also the letter's heading and signature. */
  name?: string;
}

/** The foundation's address, the unsubscribe mailbox and the sender, read once per sending. */
export async function footerOf(db: DB): Promise<LetterFooter> {
  const s = await getSiteSettings(db);
  const { sender } = await getSender(db);
  return {
    address: s.address || CONTACT_FALLBACKS.address,
    mailbox: sender?.unsubscribeMailbox || s.contactEmail || CONTACT_FALLBACKS.contactEmail,
    ...(sender ? { from: fromHeader(sender), name: sender.name } : {}),
  };
}

/**
 * One recipient's mail: their language's version (French when theirs was not written), the
 * unsubscribe page at the foot, and the headers mailbox providers require of bulk mail
 * (RFC 2369 List-Unsubscribe with an https and a mailto address; RFC 8058 one-click).
 */
/** A sending's rendered versions, by language, with TOKEN_SLOT where each reader's token goes. */
export type RenderCache = Map<string, Promise<RenderedLetter>>;
const TOKEN_SLOT = 'UNSUBSCRIBE-TOKEN-SLOT-7f3a9c';

export async function letterMail(
  letter: Pick<Letter, 'versions'>,
  to: Pick<Subscriber, 'id' | 'email' | 'language'>,
  site: LetterSite,
  footer: LetterFooter,
  subjectPrefix = '',
  renders: RenderCache = new Map(),
): Promise<Mail & RenderedLetter> {
  const token = unsubscribeToken(site.appSecret, to.id);
  const oneClick = `${site.origin}${unsubscribePath(token)}/un-clic`;
  const mailto = `mailto:${footer.mailbox}?subject=${encodeURIComponent(mailtoSubject(token))}`;
  // MJML's work is done once per language of a sending: each reader's mail only gets their token.
  let template = renders.get(to.language);
  if (!template) {
    const page = absoluteUrl(site.origin, unsubscribePath(TOKEN_SLOT), to.language);
    template = renderLetter(versionFor(letter.versions, to.language), { lang: to.language, origin: site.origin, unsubscribeUrl: page, address: footer.address, siteName: footer.name ?? 'Fondation THV' });
    renders.set(to.language, template);
  }
  const shown = await template;
  // A token is base64url and dots: the same in a URL, in HTML and in text.
  const rendered = { subject: shown.subject, html: shown.html.replaceAll(TOKEN_SLOT, token), text: shown.text.replaceAll(TOKEN_SLOT, token) };
  return {
    to: to.email,
    ...(footer.from ? { from: footer.from } : {}),
    ...rendered,
    subject: `${subjectPrefix}${rendered.subject}`,
    headers: { 'List-Unsubscribe': `<${oneClick}>, <${mailto}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}

// ---- The sending rate (Admin) ------------------------------------------------------------------

const RATE_KEY = 'letters.rate';

export async function sendingRate(db: DB): Promise<SendingRate> {
  const parsed = rateSchema.safeParse((await readSettingDocument(db, RATE_KEY)).value);
  return parsed.success ? parsed.data : { ...DEFAULT_RATE };
}

export async function saveSendingRate(db: DB, actor: Actor, rate: SendingRate, now = new Date()): Promise<void> {
  await putSettingDocument(db, RATE_KEY, rate, now);
  await audit(db, actor, 'letter.rate', RATE_KEY, rate as unknown as Record<string, unknown>);
}
