import { describe, expect, it } from 'vitest';
import { fetchJson, ProviderError } from '~/domain/donations/providers/types';
import { startFake } from '../fakes/http';
import { scriptedApi } from '../support/scripted-api';

/** How a provider's answer becomes JSON or a ProviderError that names it (mutation testing, ADR 011). */
describe('fetching from a payment provider', () => {
  const api = scriptedApi();
  const get = () => fetchJson('acme', `${api.url}/x`);
  const failure = async () => {
    const e = await get().then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(ProviderError);
    return { name: (e as ProviderError).name, provider: (e as ProviderError).provider, message: (e as ProviderError).message };
  };

  it('returns the JSON object of a 2xx answer', async () => {
    api.next = { json: { ok: 1 } };
    expect(await get()).toEqual({ ok: 1 });
  });

  it('refuses a 2xx answer that is not JSON, or JSON that is not an object', async () => {
    api.next = { text: '<html>maintenance</html>', type: 'text/html' };
    expect(await failure()).toEqual({ name: 'ProviderError', provider: 'acme', message: 'réponse illisible (HTTP 200)' });
    for (const text of ['null', '"ok"', '5', 'true']) {
      api.next = { text, type: 'application/json' };
      expect(await failure(), text).toEqual({ name: 'ProviderError', provider: 'acme', message: 'réponse illisible' });
    }
  });

  it('gives the provider’s own words for an error answer, at most 200 characters', async () => {
    api.next = { status: 400, json: { message: 'Invalid amount', error_description: 'other' } };
    expect((await failure()).message).toBe('Invalid amount');
    api.next = { status: 401, json: { error: 'invalid_client', error_description: 'Client Authentication failed' } };
    expect((await failure()).message).toBe('Client Authentication failed');
    api.next = { status: 500, json: { reason: 'x' } };
    expect((await failure()).message).toBe('HTTP 500');
    api.next = { status: 502, text: 'null', type: 'application/json' };
    expect((await failure()).message).toBe('HTTP 502');
    api.next = { status: 400, json: { message: 'é'.repeat(300) } };
    expect((await failure()).message).toBe('é'.repeat(200));
  });

  it('says the provider cannot be reached when nothing answers', async () => {
    const closed = await startFake(0, () => ({ json: {} }));
    await closed.close();
    const e = await fetchJson('acme', `${closed.url}/x`).catch((x: unknown) => x);
    expect(e).toMatchObject({ provider: 'acme' });
    expect((e as Error).message).toMatch(/^service injoignable \(.+\)$/);
  });
});
