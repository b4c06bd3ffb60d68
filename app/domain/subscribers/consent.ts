import { z } from 'zod';
import { isLang, LANGS, type Lang } from '~/lib/i18n';

/**
 * The news list's rules (ADR 022), in one place: the sign-up form's schema, the consent wording's
 * version, and which state follows which. Shared with the browser: no server imports.
 */

/**
 * The version of the consent sentence shown beside the sign-up form (`newsletter.consent` in the
 * three locales). Change the sentence, change this: every proof of consent names the version seen.
 */
export const CONSENT_WORDING_VERSION = '2026-11-27';

/** How long a confirmation link stays valid. */
export const OPT_IN_TTL_MS = 48 * 60 * 60 * 1000;

export const SUBSCRIBER_STATES = ['pending', 'subscribed', 'unsubscribed', 'suppressed'] as const;
export type SubscriberState = (typeof SUBSCRIBER_STATES)[number];

/** 'import': a consent proven by a file imported from another tool (ADR 036: its date and source kept). */
export const SUBSCRIBER_SOURCES = ['signup', 'donor', 'member', 'import'] as const;
export type SubscriberSource = (typeof SUBSCRIBER_SOURCES)[number];

/**
 * The doors out of the news list, each kept as the departure's source: the letter's page and its
 * button, the RFC 8058 one-click POST, the List-Unsubscribe mail, the donor's or member's own space,
 * an Admin (at the person's request). Every one of them leaves the same way (leave.server.ts).
 */
export const LEAVE_SOURCES = ['page', 'one-click', 'mailto', 'space', 'admin'] as const;
export type LeaveSource = (typeof LEAVE_SOURCES)[number];

export const SIGNUP_LIMITS = { email: 254 } as const;

/** The longest reason an Admin may give for lifting a suppression (kept in the proof and the audit log). */
export const LIFT_REASON_MAX = 500;

/** The sign-up form (footer and /blog): the same schema for the page and the action. */
export const signupSchema = z.object({
  lang: z.enum(LANGS),
  // The string's own error ('required') is every check's that names none: a missing or empty address.
  email: z.string({ error: 'required' }).trim().min(1).max(SIGNUP_LIMITS.email, { error: 'tooLong' }).pipe(z.email({ error: 'invalidEmail' })),
  /** The page the form was on (a path), kept with the proof of consent. */
  from: z.string().max(200).regex(/^\/[^\s]*$/).catch('/'),
});
export type SignupInput = z.infer<typeof signupSchema>;
export type SignupError = 'required' | 'invalidEmail' | 'tooLong';

export function signupError(error: z.ZodError): SignupError {
  const issue = error.issues.find((i) => i.path[0] === 'email');
  return (issue?.message as SignupError | undefined) ?? 'invalidEmail';
}

export const normalEmail = (email: string): string => email.trim().toLowerCase();

/**
 * What a sign-up request does to an address: a new or departed address (and one still waiting)
 * is asked to confirm; a subscribed address stays as it is (no mail: the form never tells whether
 * an address is on the list); a suppressed address is never mailed again by a form.
 */
export function afterSignup(current: SubscriberState | undefined): 'ask' | 'nothing' {
  return current === 'subscribed' || current === 'suppressed' ? 'nothing' : 'ask';
}

/** Whether the holder of a valid confirmation link becomes a subscriber: only from 'pending'. */
export const confirms = (current: SubscriberState): boolean => current === 'pending';

/**
 * A donor's consent (the box on the donation form) is a consent of its own: it subscribes a new or
 * waiting address, and an address that left before that consent was given; never one that left
 * after it (the latest word wins), nor a suppressed one.
 */
export function afterDonorConsent(current: SubscriberState | undefined, consentAt: string, leftAt: string | null): 'join' | 'nothing' {
  if (current === undefined || current === 'pending') return 'join';
  // Stryker disable next-line ConditionalExpression: a null leftAt compares false anyway; the test says what is meant
  if (current === 'unsubscribed') return leftAt !== null && consentAt > leftAt ? 'join' : 'nothing';
  return 'nothing';
}

/** Letters go to subscribed addresses only. */
export const receivesLetters = (state: string): boolean => state === 'subscribed';

/** Leaving is possible from every state but suppression (kept: the address refuses mail). */
export const leaves = (current: SubscriberState): boolean => current === 'pending' || current === 'subscribed';

export const isSubscriberState = (v: unknown): v is SubscriberState => (SUBSCRIBER_STATES as readonly unknown[]).includes(v);
export const isSubscriberSource = (v: unknown): v is SubscriberSource => (SUBSCRIBER_SOURCES as readonly unknown[]).includes(v);

/** The back office's subscriber list filters (its GET form). */
export interface SubscriberFilter {
  q?: string;
  status?: SubscriberState;
  source?: SubscriberSource;
  language?: Lang;
}

export function subscriberFilterFrom(params: URLSearchParams): SubscriberFilter {
  const status = params.get('status');
  const source = params.get('source');
  const language = params.get('language');
  const q = (params.get('q') ?? '').trim().slice(0, 100);
  return {
    ...(q ? { q } : {}),
    ...(isSubscriberState(status) ? { status } : {}),
    ...(isSubscriberSource(source) ? { source } : {}),
    ...(isLang(language) ? { language } : {}),
  };
}

export const STATE_LABELS: Record<SubscriberState, string> = { pending: 'En attente de confirmation', subscribed: 'Abonné', unsubscribed: 'Désabonné', suppressed: 'Bloqué (refus définitif)' };
export const SOURCE_LABELS: Record<SubscriberSource, string> = { signup: 'Inscription', donor: 'Donateur', member: 'Membre', import: 'Import' };
