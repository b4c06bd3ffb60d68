import { describe, expect, it } from 'vitest';
import { contactErrors, contactSchema } from '~/domain/messages/contact-schema';
import { sanitizeRichHtml } from '~/lib/sanitize.server';

describe('contact form schema', () => {
  it('requires the four fields and a valid email', () => {
    const result = contactSchema.safeParse({ firstName: ' ', lastName: '', email: 'not-an-email', message: '' });
    expect(result.success).toBe(false);
    expect(contactErrors(result.error!)).toEqual({ firstName: 'required', lastName: 'required', email: 'invalidEmail', message: 'required' });
  });

  it('refuses over-long values and trims accepted ones', () => {
    const long = contactSchema.safeParse({ firstName: 'a'.repeat(101), lastName: 'B', email: 'b@example.org', message: 'x' });
    expect(contactErrors(long.error!)).toEqual({ firstName: 'tooLong' });
    expect(contactSchema.parse({ firstName: ' Awa ', lastName: 'D', email: 'a@example.org', message: ' Hi ' })).toEqual({
      firstName: 'Awa',
      lastName: 'D',
      email: 'a@example.org',
      message: 'Hi',
    });
  });
});

describe('rich HTML sanitizer', () => {
  it('keeps the toolbar markup', () => {
    const html = '<h1>A</h1><h2>B</h2><h3>C</h3><p><strong>b</strong> <em>i</em> <u>u</u> <s>s</s></p><ol><li>1</li></ol><ul><li>x</li></ul><p><a href="mailto:a@b.org">m</a></p>';
    expect(sanitizeRichHtml(html)).toBe(html);
  });

  it('drops scripts, handlers, styles and dangerous URLs, and opens links safely', () => {
    expect(sanitizeRichHtml('<p onmouseover="x()" style="color:red">t</p><script>alert(1)</script>')).toBe('<p>t</p>');
    expect(sanitizeRichHtml('<a href="javascript:alert(1)">x</a>')).toBe('<a>x</a>');
    expect(sanitizeRichHtml('<a href="data:text/html,<script>">x</a>')).toBe('<a>x</a>');
    expect(sanitizeRichHtml('<img src=x onerror=alert(1)><svg><script>1</script></svg><iframe src="//evil"></iframe>')).toBe('');
    expect(sanitizeRichHtml('<a href="https://example.org">x</a>')).toBe('<a href="https://example.org" target="_blank" rel="noopener noreferrer">x</a>');
  });

  it('keeps line breaks and blank lines, and turns other spellings into the editor\'s formats', () => {
    expect(sanitizeRichHtml('<p>a<br>b</p><p><br></p><p></p>')).toBe('<p>a<br />b</p><p><br /></p><p></p>');
    expect(sanitizeRichHtml('<b>b</b> <i>i</i> <strike>s</strike> <del>d</del>')).toBe('<strong>b</strong> <em>i</em> <s>s</s> <s>d</s>');
  });

  it('drops what is inside a non-text element instead of showing it as text', () => {
    for (const tag of ['script', 'style', 'textarea', 'option', 'noscript', 'title', 'template', 'iframe', 'object', 'svg', 'math']) {
      expect(sanitizeRichHtml(`<p>t</p><${tag}>hidden</${tag}>`), tag).toBe('<p>t</p>');
    }
  });

  it('opens web links (http or https) and links asked to open apart in a new tab, safely; keeps site links in place', () => {
    expect(sanitizeRichHtml('<a href="http://example.org">x</a>')).toBe('<a href="http://example.org" target="_blank" rel="noopener noreferrer">x</a>');
    expect(sanitizeRichHtml('<a href="/projets" target="_blank">x</a>')).toBe('<a href="/projets" target="_blank" rel="noopener noreferrer">x</a>');
    expect(sanitizeRichHtml('<a target="_blank">x</a>')).toBe('<a target="_blank" rel="noopener noreferrer">x</a>');
    expect(sanitizeRichHtml('<a href="/projets" target="_self">x</a>')).toBe('<a href="/projets">x</a>');
    expect(sanitizeRichHtml('<a href="/aller?vers=https://example.org">x</a>')).toBe('<a href="/aller?vers=https://example.org">x</a>');
  });

  it('drops protocol-relative links and links with neither an address nor text', () => {
    expect(sanitizeRichHtml('<a href="//evil.example">x</a>')).toBe('<a>x</a>');
    expect(sanitizeRichHtml('<p><a></a><a> </a><a href="javascript:alert(1)"></a></p>')).toBe('<p></p>');
  });

  it('reads an absent text (a null column) as empty', () => {
    expect(sanitizeRichHtml(null as unknown as string)).toBe('');
  });
});
