import { expect, test } from '@playwright/test';

test('health and readiness answer quickly for load balancers', async ({ request }) => {
  const health = await request.get('/healthz');
  expect(health.status()).toBe(200);
  expect(await health.text()).toBe('ok');
  const ready = await request.get('/readyz');
  expect(ready.status()).toBe(200);
  expect(await ready.text()).toBe('ready');
});
