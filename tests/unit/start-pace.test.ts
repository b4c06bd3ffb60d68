import { describe, expect, it } from 'vitest';
import { StartPace } from '~/domain/donations/start-pace.server';

describe('a provider’s pace of payment starts', () => {
  it('takes as many starts a second as the provider allows, then none until the next second', () => {
    const pace = new StartPace();
    const t = 1_700_000_000_250;
    expect([1, 2, 3].map(() => pace.take('stripe', 2, t))).toEqual([true, true, false]);
    expect(pace.take('stripe', 2, t + 749)).toBe(false);
    expect(pace.take('stripe', 2, t + 750)).toBe(true);
  });

  it('counts each provider apart', () => {
    const pace = new StartPace();
    expect(pace.take('stripe', 1, 0)).toBe(true);
    expect(pace.take('stripe', 1, 0)).toBe(false);
    expect(pace.take('paypal', 1, 0)).toBe(true);
  });
});
