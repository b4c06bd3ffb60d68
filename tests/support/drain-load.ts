import http from 'node:http';

/**
 * The load of the drain tests (docs/operations.md, "Restarts"): tests/e2e/ops/restart.spec.ts against a server
 * process, tests/container/drain.ts against the container. Contact posts use one connection each,
 * as behind a proxy: a refused connection was never accepted, while a reset or a non-303 answer is
 * a lost request.
 */
export type Outcome = 'ok' | 'refused' | 'lost' | string;

export function postContact(port: number, n: number): Promise<Outcome> {
  const body = new URLSearchParams({ firstName: 'Charge', lastName: String(n), email: `load${n}@example.org`, message: 'Message envoyé sous charge' }).toString();
  return new Promise((resolve) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: '/contact', method: 'POST', agent: false, headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': Buffer.byteLength(body), Origin: `http://127.0.0.1:${port}`, Connection: 'close' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode === 303 ? 'ok' : `lost: status ${res.statusCode}`));
        res.on('error', () => resolve('lost'));
      },
    );
    req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED' ? 'refused' : `lost: ${e.code ?? e.message}`));
    req.end(body);
  });
}

/**
 * A bounded load (20 senders, 4 seconds at most) through a stand-in for a load balancer: it polls
 * /readyz and sends no new request once the server says it is shutting down. `stop` (the SIGTERM)
 * is called after one second. `routable`: false once /readyz failed; `okNumbers`: the messages
 * acknowledged (303), which must be in the database afterwards.
 */
export async function loadThroughStop(port: number, stop: () => void): Promise<{ outcomes: Outcome[]; okNumbers: number[]; routable: boolean }> {
  const outcomes: Outcome[] = [];
  const okNumbers: number[] = [];
  let n = 0;
  let routable = true;
  const until = Date.now() + 4000;
  const probe = setInterval(() => {
    void fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => (routable = routable && r.ok),
      () => (routable = false),
    );
  }, 50);
  const sender = async () => {
    while (Date.now() < until && routable) {
      const i = n++;
      const o = await postContact(port, i);
      outcomes.push(o);
      if (o === 'ok') okNumbers.push(i);
    }
  };
  const load = Promise.all(Array.from({ length: 20 }, sender));
  await new Promise((r) => setTimeout(r, 1000));
  stop();
  await load;
  clearInterval(probe);
  return { outcomes, okNumbers, routable };
}
