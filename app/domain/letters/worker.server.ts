import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { DB } from '~db/index';
import { receivesLetters } from '~/domain/subscribers/consent';
import { subscriberById, suppress } from '~/domain/subscribers/subscribers.server';
import { log } from '~/lib/log.server';
import { DeliveryError, type Mail } from '~/lib/mail.server';
import { hitRateLimit } from '~/lib/rate-limit.server';
import { footerOf, getLetter, letterMail, type RenderCache, markLetterSent, pauseLetter, sendingLetterIds, sendingRate, startDueLetters, type LetterSite } from './letters.server';
import { classifyFailure, countsTowardsPause, MAX_ERRORS_IN_A_ROW, pauseReason } from './outcome';
import { claim, drained, markAbandoned, release, settle } from './queue.server';
import { syncSources } from './sources.server';

/**
 * The background sending of letters (ADR 022), started by server/runtime-hooks.ts only, never by a
 * request. Each instance runs one; they share the queue through its claims and the rate through
 * counters in the database.
 */
export interface SendingDeps {
  db: DB;
  /** Without a trusted origin or an SMTP server, letters cannot go: a sending pauses and says so. */
  site: LetterSite | undefined;
  deliver: ((mail: Mail) => Promise<void>) | undefined;
  /** Unique per process run (host, pid, random): claims name it. */
  workerId?: string;
  /** A claim older than this, never settled, is marked unknown (its worker died). */
  leaseMs?: number;
  /** Pause between rounds when there is nothing to send. */
  idleMs?: number;
  /** How often donors and members who consented join the list (sources.server.ts). */
  syncEveryMs?: number;
  now?: () => Date;
}

export const DEFAULT_LEASE_MS = 5 * 60 * 1000;
export const DEFAULT_SYNC_EVERY_MS = 60 * 1000;
const SECOND_KEY = 'letters:second';
const HOUR_KEY = 'letters:hour';

export const newWorkerId = (): string => `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

const NOT_CONFIGURED = 'Envoi impossible : le site n’a pas d’adresse publique (PUBLIC_URL) ou pas de serveur d’envoi (SMTP_URL). Configurez-les, puis reprenez l’envoi.';

/** A worker's memory between rounds: when its last pass over the list's sources was. */
export interface WorkerState {
  syncedAt: number;
  /** The letter being sent and its versions rendered by language (a letter's content is fixed once sending). */
  rendered?: { letterId: string; renders: RenderCache };
}

/**
 * One round: donors and members who consented since the last pass join the list (at most every
 * `syncEveryMs`, reading only what changed), abandoned claims become unknown, due letters start,
 * then each sending letter sends as many mails as the rate allows now. Returns the milliseconds
 * to wait before the next round.
 */
export async function sendingRound(deps: SendingDeps, workerId: string, state: WorkerState = { syncedAt: -Infinity }): Promise<number> {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  if (now().getTime() - state.syncedAt >= (deps.syncEveryMs ?? DEFAULT_SYNC_EVERY_MS)) {
    state.syncedAt = now().getTime();
    const joined = await syncSources(db, now());
    if (joined) log.info('letters: donors and members who consented joined the list', { joined });
  }
  const abandoned = await markAbandoned(db, deps.leaseMs ?? DEFAULT_LEASE_MS, now());
  if (abandoned) log.warn('letters: claims of a stopped worker marked unknown (never resent)', { rows: abandoned });
  await startDueLetters(db, now());
  const idle = deps.idleMs ?? 1000;
  const letters = await sendingLetterIds(db);
  if (!letters.length) return idle;
  const rate = await sendingRate(db);
  for (const id of letters) {
    if (!deps.site || !deps.deliver) {
      await pauseLetter(db, id, NOT_CONFIGURED, now());
      continue;
    }
    if (state.rendered?.letterId !== id) state.rendered = { letterId: id, renders: new Map() };
    const wait = await sendLetter(deps, deps.site, deps.deliver, workerId, id, rate, now, state.rendered.renders);
    if (wait > 0) return wait;
  }
  return 0;
}

async function sendLetter(
  deps: SendingDeps,
  site: LetterSite,
  deliver: (mail: Mail) => Promise<void>,
  workerId: string,
  letterId: string,
  rate: { perSecond: number; perHour: number },
  now: () => Date,
  renders: RenderCache,
): Promise<number> {
  const { db } = deps;
  const letter = await getLetter(db, letterId);
  if (!letter || letter.status !== 'sending') return 0;
  const footer = await footerOf(db);
  let errors = 0;
  for (;;) {
    const t = now().getTime();
    const second = await hitRateLimit(db, SECOND_KEY, rate.perSecond, 1000, t);
    if (!second.allowed) return waitFor(db, SECOND_KEY, t, 50);
    const hour = await hitRateLimit(db, HOUR_KEY, rate.perHour, 3_600_000, t);
    if (!hour.allowed) return waitFor(db, HOUR_KEY, t, 1000);
    const [row] = await claim(db, letterId, workerId, 1, now());
    if (!row) {
      if (await drained(db, letterId)) await markLetterSent(db, letterId, now());
      return 0;
    }
    const to = await subscriberById(db, row.subscriberId);
    // Suppression and departures are honoured up to the last moment.
    if (!to || !receivesLetters(to.status)) {
      await settle(db, row.id, workerId, 'skipped', null, now());
      continue;
    }
    try {
      await deliver(await letterMail(letter, to, site, footer, '', renders));
      await settle(db, row.id, workerId, 'sent', null, now());
      errors = 0;
    } catch (e) {
      const err = e instanceof DeliveryError ? e : new DeliveryError(e instanceof Error ? e.message : String(e), undefined, undefined);
      const kind = classifyFailure(err);
      if (kind === 'retry') await release(db, row.id, workerId);
      else await settle(db, row.id, workerId, 'failed', err.message.slice(0, 500), now());
      if (kind === 'suppress') await suppress(db, to.email, err.message.slice(0, 200), 'smtp', now());
      if (countsTowardsPause(kind)) errors++;
      log.warn('letters: a mail was not delivered', { letterId, row: row.id, kind, error: err.message });
      if (errors >= MAX_ERRORS_IN_A_ROW) {
        await pauseLetter(db, letterId, pauseReason(errors, err.message.slice(0, 300)), now());
        return 0;
      }
    }
    // Paused by an Admin meanwhile: stop at once.
    if ((await getLetter(db, letterId))?.status !== 'sending') return 0;
  }
}

/** Milliseconds until a rate window reopens (at least `min`). */
async function waitFor(db: DB, key: string, t: number, min: number): Promise<number> {
  const row = await db.selectFrom('rate_limits').select('reset_at').where('key', '=', key).executeTakeFirst();
  return Math.max(min, row ? Number(row.reset_at) - t : min);
}

/** Starts the loop; returns its stop (which waits for the mail in hand). */
export function startLetterSending(deps: SendingDeps): () => Promise<void> {
  const workerId = deps.workerId ?? newWorkerId();
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> = Promise.resolve();
  const state: WorkerState = { syncedAt: -Infinity };
  const tick = () => {
    running = sendingRound(deps, workerId, state)
      .catch((e) => {
        log.error('letters: sending round failed', { error: e instanceof Error ? e.message : String(e) });
        return deps.idleMs ?? 1000;
      })
      .then((wait) => {
        if (!stopped) {
          timer = setTimeout(tick, wait);
          timer.unref?.();
        }
      });
  };
  tick();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}
