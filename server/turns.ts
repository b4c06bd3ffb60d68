import type { Server, Socket } from 'node:net';

/**
 * Requests that need rendering start one per event-loop turn, in the order they arrived (ADR 017,
 * fourth and sixth addenda).
 *
 * libuv accepts at most one new connection each time the loop polls. When every turn renders every
 * request that arrived on the open connections, a turn lasts as long as all of those renders, and a
 * new visitor's connection waits in the kernel's queue for one such turn per visitor already
 * accepted: under load, the fiftieth connection waited two seconds before its first byte was read.
 * Starting one request per turn keeps turns as short as one request's synchronous work, so a new
 * connection is accepted within one render, and waiting requests are served first come, first
 * served. A request that waits for I/O (a PostgreSQL query, a payment API) yields its turn, so
 * requests still run concurrently. Cached pages and static files never wait here.
 *
 * Two refinements:
 * - A turn that follows the accepting of a connection renders nothing, so the next poll comes at
 *   once and accepts the next connection waiting in the kernel: a burst of new visitors is taken in
 *   within microseconds, not one render apart, and their requests join the line in the order they
 *   came. At most MAX_ACCEPT_TURNS such turns in a row, and only while fewer than MAX_WAITING
 *   requests wait: a flood of connections (idle ones included) cannot hold renders back.
 * - A request whose visitor has gone (closed the tab, reloaded, a client that timed out) while it
 *   waited is dropped when its turn comes, not rendered for nobody: a visitor who reloads twice
 *   costs one render, and the requests of a closed connection never delay those of open ones.
 */
const MAX_ACCEPT_TURNS = 64;
const MAX_WAITING = 256;

type Waiting = { start: (started: boolean) => void; gone?: () => boolean };
const waiting: Waiting[] = [];
let scheduled = false;
/** A connection was accepted since the last turn. */
let accepted = false;
/** Turns given to accepting connections since a request last started. */
let acceptTurns = 0;

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(startNext);
}

function startNext(): void {
  scheduled = false;
  if (accepted && acceptTurns < MAX_ACCEPT_TURNS && waiting.length < MAX_WAITING) {
    accepted = false;
    acceptTurns += 1;
    schedule();
    return;
  }
  accepted = false;
  acceptTurns = 0;
  let next = waiting.shift();
  // Requests whose visitor left are let go (resolved with false), all in this turn: dropping one
  // costs nothing worth a turn of its own.
  while (next?.gone?.()) {
    next.start(false);
    next = waiting.shift();
  }
  if (waiting.length > 0) schedule();
  // The request's continuation runs as a microtask once this callback returns, before the loop
  // polls again: its synchronous work (a render, on SQLite) fills this turn and this turn only.
  next?.start(true);
}

/**
 * Resolves when it is this request's turn to run: with true, or with false when `gone` says that
 * its visitor left while it waited (the caller then answers nothing).
 */
export function nextTurn(gone?: () => boolean): Promise<boolean> {
  return new Promise((resolve) => {
    waiting.push({ start: resolve, gone });
    schedule();
  });
}

/**
 * The visitor on this connection has gone: the connection is closed, or the client has ended its
 * side, after which Node's HTTP server ends the connection too (it does not serve half-open
 * connections), so no answer could reach anyone.
 */
export function hasLeft(socket: Socket): boolean {
  return socket.destroyed || socket.readableEnded;
}

/** Gives the turn after each accepted connection to the next connection (see above). */
export function acceptsFirst(server: Server): void {
  server.on('connection', () => {
    accepted = true;
  });
}

/** Requests waiting for their turn (for tests and diagnostics). */
export function waitingForTurn(): number {
  return waiting.length;
}
