import type { DonationDeps } from '~/domain/donations/context.server';
import { providerFor, type Means } from '~/domain/means/means';
import type { BrowserOrigins } from '~/domain/donations/providers/provider';
import { providerOf } from '~/domain/donations/providers/registry.server';
import { TAB_METHODS as METHODS, type TabMethod as Method } from '~/domain/giving/form';
import { contentSecurityPolicy } from '~/lib/csp.server';

/** The donate page's tabs in their order (the giving area's). */
export { METHODS, type Method };

type Deps = Pick<DonationDeps, 'env' | 'settings'>;

/** The means a donate tab takes: mobile money is the payment link when one is set instead of the checkout. */
const tabMeans = (deps: Deps, m: Method): Means => (m === 'mobileMoney' && deps.settings.mobileMoney.integrationType === 'link' ? 'mobileLink' : m);

/** Where the browser meets the provider of a means (the provider says: ADR 019). */
function browserOf(deps: Deps, means: Means): BrowserOrigins {
  const name = providerFor(means);
  return name ? providerOf(name).browser(deps) : { hosted: [] };
}

const uniq = (xs: string[]) => [...new Set(xs)];

/** The browser scripts of the donate page's tabs whose checkout opens in the page (PayPal's buttons, mobile money's inline checkout). */
export function donateScripts(deps: Deps): Partial<Record<Method, string>> {
  return Object.fromEntries(METHODS.flatMap((m) => {
    const script = browserOf(deps, tabMeans(deps, m)).script;
    return script ? [[m, script.url]] : [];
  }));
}

/**
 * The policy of a page whose plain forms lead to the providers' own pages (/devenir-membre): no
 * script of theirs, only `form-action` to the hosted checkouts of the methods on offer.
 */
export function hostedCheckoutCsp(deps: Deps, on: Record<Method, boolean>): string {
  const formAction = uniq(METHODS.filter((m) => on[m]).flatMap((m) => browserOf(deps, m).hosted));
  return contentSecurityPolicy(null, { formAction, scriptSrc: [], frameSrc: [], connectSrc: [] });
}

/**
 * The donate page's CSP: the default policy plus exactly the origins of the methods on offer — a
 * tab whose provider opens its checkout by script in the page brings that script, its frames and
 * API calls; any other tab's form may lead to its provider's hosted page (or the payment link).
 */
export function donatePageCsp(deps: Deps, on: Record<Method, boolean>): string {
  const formAction: string[] = [];
  const scriptSrc: string[] = [];
  const frameSrc: string[] = [];
  const connectSrc: string[] = [];
  for (const m of METHODS.filter((x) => on[x])) {
    const b = browserOf(deps, tabMeans(deps, m));
    if (!b.script) {
      formAction.push(...b.hosted);
      continue;
    }
    const origin = new URL(b.script.url).origin;
    scriptSrc.push(origin);
    frameSrc.push(...b.script.frames);
    connectSrc.push(...b.script.connect);
  }
  return contentSecurityPolicy(null, { formAction: uniq(formAction), scriptSrc: uniq(scriptSrc), frameSrc: uniq(frameSrc), connectSrc: uniq(connectSrc) });
}
