/**
 * The donate forms' box "Recevoir des nouvelles de la fondation" (ADR 013): unticked by default,
 * the same field on every method's form. Shared with the browser: no server imports.
 */
export const NEWSLETTER_FIELD = 'newsletter';
export const NEWSLETTER_TICKED = 'yes';

/** Whether a posted value (form or JSON body) is the ticked box. */
export const newsletterTicked = (value: unknown): boolean => value === NEWSLETTER_TICKED;
