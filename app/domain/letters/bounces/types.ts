/**
 * A mail provider's bounce and complaint notifications behind one interface (ADR 022), like the
 * payment providers: each module verifies a notification as its provider documents and turns it
 * into events; what an event does to the list is decided once, in apply.server.ts.
 */
export type BounceKind = 'hard' | 'soft' | 'complaint' | 'delivered';

export interface BounceEvent {
  /** The provider's id of the event: a replay is recognised by it. */
  id: string;
  kind: BounceKind;
  recipient: string;
  /** What the provider said (its SMTP answer, its reason), for the suppression's reason. */
  detail: string;
}

export type Verified = { ok: true; events: BounceEvent[] } | { ok: false; reason: string };

export interface BounceProvider {
  name: string;
  /** Checks the notification's authenticity (and freshness), then reads its events. */
  verify(body: unknown, secret: string, now: Date): Verified;
}
