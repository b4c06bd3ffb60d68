import { describe, expect, it } from 'vitest';
import { open, seal } from '~/lib/secret-box.server';

describe('secrets sealed at rest', () => {
  it('still opens a value sealed by an earlier version (the key derivation and format do not drift)', () => {
    const sealed = 'v1.8Kv4MtsouUp39i0y.36Ogoij090tOUQ1xMq2RhA.bmbpieNiX-8EFuqAwlSQEA';
    expect(open('known-answer-app-secret', 'payments', sealed)).toBe('clé sk_live_€');
    expect(() => open('known-answer-app-secret', 'other-purpose', sealed)).toThrow();
  });

  it('round-trips any text, with a fresh IV each time', () => {
    const a = seal('s', 'p', 'clé €');
    const b = seal('s', 'p', 'clé €');
    expect(a).not.toBe(b);
    expect(open('s', 'p', a)).toBe('clé €');
    expect(open('s', 'p', seal('s', 'p', ''))).toBe('');
  });

  it.each([
    ['another version', 'v2.8Kv4MtsouUp39i0y.36Ogoij090tOUQ1xMq2RhA.bmbpieNiX-8EFuqAwlSQEA'],
    ['no IV', 'v1..36Ogoij090tOUQ1xMq2RhA.bmbpieNiX-8EFuqAwlSQEA'],
    ['no tag', 'v1.8Kv4MtsouUp39i0y..bmbpieNiX-8EFuqAwlSQEA'],
    ['no ciphertext part', 'v1.8Kv4MtsouUp39i0y.36Ogoij090tOUQ1xMq2RhA'],
    ['nothing', ''],
  ])('refuses a value that is not sealed (%s)', (_what, value) => {
    expect(() => open('known-answer-app-secret', 'payments', value)).toThrow(new Error('not a sealed value'));
  });
});
