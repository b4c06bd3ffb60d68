/**
 * The donate page's own script, loaded only on its PayPal and mobile money tabs (card and crypto
 * are plain forms). It loads the provider's browser script when that tab is open — never before —
 * and talks to our server for everything that counts: the server creates, captures and verifies.
 */
import { NEWSLETTER_FIELD } from '~/domain/donors/consent';
import { readGiftForm, type GiftMethod } from '~/domain/giving/form';
import { interpolate } from '~/lib/interpolate';
import { langOfPath, sitePath, type Lang } from '~/lib/lang-path';
import { checkoutReady, openCheckout, type StartedCheckout } from './providers/mobile-checkout';
import { showToast } from './toasts';

type Msgs = Record<string, string>;

function msgs(root: HTMLElement): Msgs {
  try {
    return JSON.parse(root.dataset.messages ?? '{}') as Msgs;
  } catch {
    return {};
  }
}

/** The SPEC's load states: initial → pending → resolved | rejected; `attempts` tries, `delayMs` apart. */
export function loadScript(src: string, attempts = 1, delayMs = 1000): Promise<void> {
  return new Promise((resolve, reject) => {
    let left = attempts;
    const tryOnce = () => {
      const s = document.createElement('script');
      s.src = src;
      s.async = true;
      s.onload = () => resolve();
      s.onerror = () => {
        s.remove();
        left -= 1;
        if (left > 0) setTimeout(tryOnce, delayMs);
        else reject(new Error(`failed to load ${src}`));
      };
      document.head.append(s);
    };
    tryOnce();
  });
}

const REDIRECT_DELAY_MS = 2500;
/** An amount the server takes (the donate form's schema, read alone): the PayPal buttons stay off until then. */
const validAmount = (v: string) => readGiftForm('paypal', { amount: v }, { receipts: false }).ok;

/**
 * What the form chose besides the amount, sent with it as a plain form would: the giving options
 * (campaign, dedication), the "Reçu fiscal" fieldset (tax_*) and the news box (NewsletterConsent),
 * a box only when ticked. The server validates them again.
 */
function formChoices(root: HTMLElement): Record<string, string> {
  const out: Record<string, string> = {};
  root.querySelectorAll<HTMLInputElement>(`[data-giving] :is(input, select, textarea), [data-tax-fields] input, input[name="${NEWSLETTER_FIELD}"]`).forEach((i) => {
    if ((i.type === 'checkbox' || i.type === 'radio') && !i.checked) return;
    out[i.name] = i.value;
  });
  return out;
}

/** Our API's answer: its fields, and for a refusal the message's variables (a campaign's title). */
type Answer = { id?: string; redirect?: string; error?: string; detail?: string; vars?: Record<string, string> };

/** The page's language (its address names it): our API answers and records the gift in it. */
const pageLang = (): Lang => langOfPath(window.location.pathname);

async function post(url: string, body: Record<string, string>): Promise<{ ok: boolean; data: Answer }> {
  const res = await fetch(`${url}?lng=${pageLang()}`, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify(body), credentials: 'same-origin' });
  let data: Answer = {};
  try {
    data = (await res.json()) as Answer;
  } catch {
    /* garbage: handled as an error below */
  }
  return { ok: res.ok, data };
}

function errorToast(m: Msgs, key: string | undefined, detail?: string, vars?: Record<string, string>) {
  const text = (key && m[key]) || m['donate.paymentError'] || 'Erreur de paiement';
  const [title, ...rest] = interpolate(text, { ...vars, message: (detail && m[detail]) || '' }).split(' - ');
  showToast({ title, description: rest.join(' - ') || undefined, variant: 'destructive' });
}

interface PayPalButtons {
  render(selector: string | HTMLElement): Promise<void>;
}
declare global {
  interface Window {
    paypal?: { Buttons(opts: Record<string, unknown>): PayPalButtons };
  }
}

/**
 * The form's own rules first (the donate form's schema, as the server reads it; the receipt's
 * fieldset and a campaign's dates are the server's): a refusal is shown without asking the server.
 */
function checked(m: Msgs, method: GiftMethod, body: Record<string, string>): boolean {
  const r = readGiftForm(method, body, { receipts: false });
  if (!r.ok) errorToast(m, r.error);
  return r.ok;
}

function initPayPal(root: HTMLElement): void {
  const m = msgs(root);
  const input = root.querySelector<HTMLInputElement>('[name="amount"]')!;
  const status = root.querySelector<HTMLElement>('[data-status]')!;
  const container = root.querySelector<HTMLElement>('[data-buttons]')!;
  const sdk = `${root.dataset.sdk}?client-id=${encodeURIComponent(root.dataset.clientId ?? '')}&currency=EUR&intent=capture`;
  loadScript(sdk)
    .then(() => {
      if (!window.paypal) throw new Error('paypal sdk missing');
      let actions: { enable(): void; disable(): void } | undefined;
      // Our server refused to create the order (an amount, the receipt's details, a campaign that
      // closed meanwhile) and the donor was told why: they stay on the form to change it.
      let refused = false;
      const sync = () => {
        const ok = validAmount(input.value);
        input.setAttribute('aria-invalid', String(!ok));
        if (ok) actions?.enable();
        else actions?.disable();
      };
      input.addEventListener('input', sync);
      return window.paypal
        .Buttons({
          style: { label: 'donate' },
          onInit: (_data: unknown, a: { enable(): void; disable(): void }) => {
            actions = a;
            sync();
          },
          createOrder: async () => {
            refused = false;
            const body = { amount: input.value, ...formChoices(root) };
            if (!checked(m, 'paypal', body)) {
              refused = true;
              throw new Error('form refused');
            }
            const r = await post('/api/donations/paypal/orders', body);
            if (!r.ok || !r.data.id) {
              errorToast(m, r.data.error, r.data.detail, r.data.vars);
              refused = true;
              throw new Error(r.data.error ?? 'create failed');
            }
            return r.data.id;
          },
          onApprove: async (data: { orderID: string }) => {
            const r = await post(`/api/donations/paypal/orders/${encodeURIComponent(data.orderID)}/capture`, {});
            if (r.ok && r.data.redirect) {
              window.location.assign(r.data.redirect);
              return;
            }
            // SPEC: 'Erreur PayPal…', then the cancel page (after the donor could read it).
            errorToast(m, 'donate.paypalError');
            setTimeout(() => window.location.assign(r.data.redirect || sitePath(pageLang(), '/payment/cancel')), REDIRECT_DELAY_MS);
          },
          onCancel: () => undefined,
          onError: (err: unknown) => {
            console.error('PayPal', err);
            if (refused) return;
            errorToast(m, 'donate.paypalError');
            setTimeout(() => window.location.assign('/payment/cancel'), REDIRECT_DELAY_MS);
          },
        })
        .render(container);
    })
    .then(() => status.remove())
    .catch((e: unknown) => {
      // SPEC: a PayPal SDK load failure is logged only.
      console.error('PayPal SDK', e);
      status.textContent = m['donate.unavailable'] ?? '';
    });
}

function initMobileMoney(form: HTMLFormElement): void {
  const m = msgs(form);
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
  const fields = [...form.querySelectorAll<HTMLInputElement>('input[required]')];
  const sync = () => {
    button.disabled = !fields.every((f) => f.value.trim() !== '' && f.checkValidity());
  };
  fields.forEach((f) => f.addEventListener('input', sync));
  sync();
  // The tab is open: its script is wanted. Up to 3 attempts, 1 second apart.
  const ready = loadScript(form.dataset.script!, 3, 1000);
  ready.catch(() => undefined);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const v = (n: string) => (form.elements.namedItem(n) as HTMLInputElement).value;
    const body = { amount: v('amount'), name: v('name'), email: v('email'), phone: v('phone'), ...formChoices(form) };
    if (!checked(m, 'mobileMoney', body)) return;
    button.disabled = true;
    ready
      .then(
        () => post('/api/donations/mobile-money', body),
        () => {
          showToast({ title: m['donate.modalFailed'] ?? 'Failed to load payment modal', variant: 'destructive' });
          return null;
        },
      )
      .then((r) => {
        if (!r) return;
        if (!r.ok || !checkoutReady()) {
          errorToast(m, r.data.error, r.data.detail, r.data.vars);
          return;
        }
        openCheckout(r.data as unknown as StartedCheckout, { title: form.dataset.title, description: form.dataset.description, logo: form.dataset.logo }, '/api/donations/mobile-money/callback');
      })
      .catch(() => errorToast(m, 'donate.paymentError', 'donate.providerDown'))
      .finally(sync);
  });
}

const paypalRoot = document.querySelector<HTMLElement>('[data-paypal]');
if (paypalRoot) initPayPal(paypalRoot);
const mobileForm = document.querySelector<HTMLFormElement>('[data-mobile-checkout]');
if (mobileForm) initMobileMoney(mobileForm);
