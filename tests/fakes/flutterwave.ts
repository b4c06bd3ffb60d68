import { startFake, type FakeServer } from './http';

/**
 * A fake Flutterwave v3 API (transaction verify, verify by reference) and inline script (/v3.js):
 * FlutterwaveCheckout opens a dialog whose button "pays" here and calls the page's callback with
 * the transaction id, as the real modal does. `failScript` makes the next script loads fail.
 */
export interface FakeFlutterwave extends FakeServer {
  transactions: Map<string, any>;
  failScript: number;
  /** Changes what verify answers for the next payments (amount, currency, status, tx_ref). */
  override: Record<string, unknown> | null;
  webhook(url: string, id: string, hash: string, body?: unknown): Promise<Response>;
}

export async function startFakeFlutterwave(opts: { port: number; secretKey: string }): Promise<FakeFlutterwave> {
  const transactions = new Map<string, any>();
  let seq = 7_000_000;
  const state = { failScript: 0, override: null as Record<string, unknown> | null };
  const fake = await startFake(opts.port, async (req) => {
    if (req.method === 'GET' && req.path === '/v3.js') {
      if (state.failScript > 0) {
        state.failScript -= 1;
        return { status: 503, text: 'unavailable' };
      }
      return { text: script(fake.url), type: 'application/javascript' };
    }
    if (req.method === 'POST' && req.path === '/fake/pay') {
      const cfg = JSON.parse(req.body);
      const id = String(++seq);
      transactions.set(id, { id: Number(id), tx_ref: cfg.tx_ref, flw_ref: `FLW-MOCK-${id}`, amount: cfg.amount, currency: cfg.currency, charged_amount: cfg.amount, status: 'successful', payment_type: 'mobilemoneyfranco', created_at: new Date().toISOString(), customer: { id: 1, name: cfg.customer?.name, email: cfg.customer?.email, phone_number: cfg.customer?.phone_number }, meta: cfg.meta ?? null, ...(state.override ?? {}) });
      return { json: { id } };
    }
    if (req.headers.authorization !== `Bearer ${opts.secretKey}`) return { status: 401, json: { status: 'error', message: 'Invalid authorization key', data: null } };
    const v = /^\/v3\/transactions\/(\d+)\/verify$/.exec(req.path);
    if (req.method === 'GET' && v) {
      const t = transactions.get(v[1]);
      return t ? { json: { status: 'success', message: 'Transaction fetched successfully', data: t } } : { status: 400, json: { status: 'error', message: 'No transaction was found for this id', data: null } };
    }
    if (req.method === 'GET' && req.path === '/v3/transactions/verify_by_reference') {
      const t = [...transactions.values()].find((x) => x.tx_ref === req.query.get('tx_ref'));
      return t ? { json: { status: 'success', message: 'Transaction fetched successfully', data: t } } : { status: 400, json: { status: 'error', message: 'No transaction was found for this id', data: null } };
    }
    return { status: 404, json: { status: 'error', message: 'not found' } };
  });
  return {
    ...fake,
    transactions,
    get failScript() {
      return state.failScript;
    },
    set failScript(n) {
      state.failScript = n;
    },
    get override() {
      return state.override;
    },
    set override(v) {
      state.override = v;
    },
    webhook(url, id, hash, body) {
      const t = transactions.get(id);
      const payload = JSON.stringify(body ?? { event: 'charge.completed', data: { id: t.id, tx_ref: t.tx_ref, amount: t.amount, currency: t.currency, status: t.status } });
      return fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', 'verif-hash': hash }, body: payload });
    },
  } as FakeFlutterwave;
}

function script(origin: string): string {
  return `(() => {
  const origin = ${JSON.stringify(origin)};
  window.FlutterwaveCheckout = (cfg) => {
    const dialog = document.createElement('dialog');
    dialog.setAttribute('aria-label', 'Fake Flutterwave checkout');
    const p = document.createElement('p');
    p.textContent = 'Pay ' + cfg.amount + ' ' + cfg.currency + ' (' + cfg.payment_options + ')';
    p.id = 'flw-amount';
    const pay = document.createElement('button');
    pay.textContent = 'Pay with mobile money';
    dialog.append(p, pay);
    document.body.append(dialog);
    dialog.showModal();
    pay.addEventListener('click', async () => {
      const r = await fetch(origin + '/fake/pay', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(cfg) });
      const { id } = await r.json();
      dialog.close();
      cfg.callback({ status: 'successful', transaction_id: Number(id), tx_ref: cfg.tx_ref });
    });
  };
})();`;
}
