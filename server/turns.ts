/**
 * Requests that need rendering start one per event-loop turn, in the order they arrived (ADR 017,
 * fourth addendum).
 *
 * libuv accepts at most one new connection each time the loop polls. When every turn renders every
 * request that arrived on the open connections, a turn lasts as long as all of those renders, and a
 * new visitor's connection waits in the kernel's queue for one such turn per visitor already
 * accepted: under load, the fiftieth connection waited two seconds before its first byte was read.
 * Starting one request per turn keeps turns as short as one request's synchronous work, so a new
 * connection is accepted within one render, and waiting requests are served first come, first
 * served. A request that waits for I/O (a PostgreSQL query, a payment API) yields its turn, so
 * requests still run concurrently. Cached pages and static files never wait here.
 */
const waiting: (() => void)[] = [];
let scheduled = false;

function startNext(): void {
  const start = waiting.shift();
  if (waiting.length > 0) setImmediate(startNext);
  else scheduled = false;
  // The request's continuation runs as a microtask once this callback returns, before the loop
  // polls again: its synchronous work (a render, on SQLite) fills this turn and this turn only.
  start?.();
}

/** Resolves when it is this request's turn to run. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!scheduled) {
      scheduled = true;
      setImmediate(startNext);
    }
  });
}

/** Requests waiting for their turn (for tests and diagnostics). */
export function waitingForTurn(): number {
  return waiting.length;
}
