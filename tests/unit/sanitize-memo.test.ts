import { beforeEach, describe, expect, it, vi } from 'vitest';

// The sanitizer remembers its results (stored rich text is sanitized again on every render) within
// a budget of characters. What it remembers shows in how often sanitize-html itself runs: the real
// library, counted.
const calls = vi.hoisted(() => ({ count: 0 }));
vi.mock('sanitize-html', async (importOriginal) => {
  const real = ((await importOriginal()) as { default: (...args: unknown[]) => string }).default;
  const counted = Object.assign((...args: unknown[]) => {
    calls.count++;
    return real(...args);
  }, real);
  return { default: counted };
});

// A fresh module (an empty memory) per test.
async function freshSanitizer() {
  vi.resetModules();
  return (await import('~/lib/sanitize.server')).sanitizeRichHtml;
}

/** Sanitizes and says whether sanitize-html ran (the input was not remembered). */
function ran(sanitize: (html: string) => string, html: string) {
  const before = calls.count;
  expect(sanitize(html)).toBe(html);
  return calls.count > before;
}

describe('rich HTML sanitizer memory', () => {
  beforeEach(() => {
    calls.count = 0;
  });

  it('sanitizes a text once and answers again from memory', async () => {
    const sanitize = await freshSanitizer();
    expect(ran(sanitize, '<p>a</p>')).toBe(true);
    expect(ran(sanitize, '<p>a</p>')).toBe(false);
    expect(ran(sanitize, '<p>b</p>')).toBe(true);
  });

  it('remembers a text up to a tenth of the budget (input and result together), not larger', async () => {
    const sanitize = await freshSanitizer();
    const largest = 'a'.repeat(100_000); // 100,000 in + 100,000 out: exactly a tenth of 2,000,000
    const tooLarge = 'b'.repeat(100_001);
    expect(ran(sanitize, largest)).toBe(true);
    expect(ran(sanitize, largest)).toBe(false);
    expect(ran(sanitize, tooLarge)).toBe(true);
    expect(ran(sanitize, tooLarge)).toBe(true);
  });

  it('holds up to its budget, then forgets the texts it learnt first', async () => {
    const sanitize = await freshSanitizer();
    const texts = Array.from({ length: 11 }, (_, i) => String.fromCharCode(97 + i).repeat(100_000));
    for (const text of texts.slice(0, 10)) sanitize(text); // exactly the budget: all remembered
    expect(ran(sanitize, texts[0])).toBe(false);
    sanitize(texts[10]); // over the budget: the oldest one goes
    expect(ran(sanitize, texts[10])).toBe(false);
    expect(ran(sanitize, texts[1])).toBe(false);
    expect(ran(sanitize, texts[0])).toBe(true);
  });
});
