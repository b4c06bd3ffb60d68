import { startFake, type FakeServer } from './http';

/**
 * A fake Flutterwave v3 API (transaction verify, verify by reference, hosted payments with their
 * checkout page) and inline script (/v3.js):
 * FlutterwaveCheckout opens a dialog whose button "pays" here and calls the page's callback with
 * the transaction id, as the real modal does. `failScript` makes the next script loads fail.
 */
/** Flutterwave's fee on a mobile money payment, as the fake charges it (ADR 033): 1.4 %, rounded to a whole unit (XOF has no cents). */
export const fakeFlutterwaveFee = (amount: number) => Math.round(amount * 0.014);

export interface FakeFlutterwave extends FakeServer {
  transactions: Map<string, any>;
  failScript: number;
  /** Changes what verify answers for the next payments (amount, currency, status, tx_ref). */
  override: Record<string, unknown> | null;
  webhook(url: string, id: string, hash: string, body?: unknown): Promise<Response>;
}

export async function startFakeFlutterwave(opts: { port: number; secretKey: string }): Promise<FakeFlutterwave> {
  const transactions = new Map<string, any>();
  const checkouts = new Map<string, any>();
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
      transactions.set(id, { id: Number(id), tx_ref: cfg.tx_ref, flw_ref: `FLW-MOCK-${id}`, amount: cfg.amount, currency: cfg.currency, charged_amount: cfg.amount, app_fee: fakeFlutterwaveFee(cfg.amount), amount_settled: cfg.amount - fakeFlutterwaveFee(cfg.amount), status: 'successful', payment_type: 'mobilemoneyfranco', created_at: new Date().toISOString(), customer: { id: 1, name: cfg.customer?.name, email: cfg.customer?.email, phone_number: cfg.customer?.phone_number }, meta: cfg.meta ?? null, ...(state.override ?? {}) });
      return { json: { id } };
    }
    // The hosted checkout (Flutterwave Standard): "Pay" makes the transaction and sends the payer to
    // redirect_url with status, tx_ref and transaction_id; "Cancel" with status=cancelled.
    const hosted = /^\/v3\/hosted\/pay\/(\w+)$/.exec(req.path);
    if (hosted) {
      const h = checkouts.get(hosted[1]);
      if (!h) return { status: 404, html: '<p>Unknown checkout</p>' };
      const to = (q: string) => `${h.redirect_url}${h.redirect_url.includes('?') ? '&' : '?'}${q}`;
      if (req.method === 'POST') {
        if (new URLSearchParams(req.body).get('choice') === 'cancel') return { redirect: to(`status=cancelled&tx_ref=${h.tx_ref}`) };
        const id = String(++seq);
        transactions.set(id, { id: Number(id), tx_ref: h.tx_ref, flw_ref: `FLW-MOCK-${id}`, amount: Number(h.amount), currency: h.currency, charged_amount: Number(h.amount), app_fee: fakeFlutterwaveFee(Number(h.amount)), amount_settled: Number(h.amount) - fakeFlutterwaveFee(Number(h.amount)), status: 'successful', payment_type: 'mobilemoneyfranco', created_at: new Date().toISOString(), customer: { id: 1, name: h.customer?.name, email: h.customer?.email, phone_number: h.customer?.phonenumber }, meta: h.meta ?? null, ...(state.override ?? {}) });
        return { redirect: to(`status=successful&tx_ref=${h.tx_ref}&transaction_id=${id}`) };
      }
      return { html: `<!doctype html><html lang="en"><title>Fake Flutterwave</title><main><h1>Fake Flutterwave checkout</h1><p id="flw-amount">Pay ${h.amount} ${h.currency} (${h.payment_options})</p><form method="post"><button name="choice" value="pay">Pay with mobile money</button><button name="choice" value="cancel">Cancel</button></form></main></html>` };
    }
    if (req.headers.authorization !== `Bearer ${opts.secretKey}`) return { status: 401, json: { status: 'error', message: 'Invalid authorization key', data: null } };
    if (req.method === 'POST' && req.path === '/v3/payments') {
      const body = JSON.parse(req.body);
      if (!body.tx_ref || !body.amount || !body.currency || !body.redirect_url || !body.customer?.email) return { status: 400, json: { status: 'error', message: 'tx_ref, amount, currency, redirect_url and customer.email are required', data: null } };
      const key = `h${++seq}`;
      checkouts.set(key, body);
      return { json: { status: 'success', message: 'Hosted Link', data: { link: `${fake.url}/v3/hosted/pay/${key}` } } };
    }
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
