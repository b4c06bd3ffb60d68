import sanitizeHtml from 'sanitize-html';

/**
 * The allowlist matches the rich editor's toolbar: headings 1–3, bold, italic, underline,
 * strike, ordered and bullet lists, links, paragraphs and line breaks (app/ui/admin/RichTextEditor.tsx
 * produces exactly these). Other spellings of the same formats (b, i, strike, del) become the
 * editor's own; everything else is dropped; links keep http, https and mailto only and always open
 * safely.
 */
const options: sanitizeHtml.IOptions = {
  allowedTags: ['h1', 'h2', 'h3', 'p', 'br', 'strong', 'em', 'u', 's', 'ol', 'ul', 'li', 'a'],
  allowedAttributes: {
    a: ['href', 'target', 'rel'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'title', 'template', 'iframe', 'object', 'svg', 'math'],
  allowedClasses: {},
  allowedStyles: {},
  transformTags: {
    a: (tagName, attribs) => {
      const out: Record<string, string> = {};
      if (attribs.href) out.href = attribs.href;
      if (attribs.target === '_blank' || /^https?:/i.test(attribs.href ?? '')) {
        out.target = '_blank';
        out.rel = 'noopener noreferrer';
      }
      return { tagName, attribs: out };
    },
    b: 'strong',
    i: 'em',
    strike: 's',
    del: 's',
  },
  exclusiveFilter: (frame) => frame.tag === 'a' && !frame.attribs.href && !frame.text.trim(),
};

/**
 * Stored rich text is sanitized when it is saved and again when it is read (a restored backup or an
 * old row must not bypass the allowlist). Reading is every render, so results are remembered by
 * input: the function is pure, and the memory is capped by size (oldest forgotten first).
 */
const MEMO_MAX_CHARS = 2_000_000;
const memo = new Map<string, string>();
let memoChars = 0;

export function sanitizeRichHtml(html: string): string {
  const input = html ?? '';
  const known = memo.get(input);
  if (known !== undefined) return known;
  const clean = sanitizeHtml(input, options);
  const size = input.length + clean.length;
  if (size <= MEMO_MAX_CHARS / 10) {
    memo.set(input, clean);
    memoChars += size;
    for (const [key, value] of memo) {
      if (memoChars <= MEMO_MAX_CHARS) break;
      memo.delete(key);
      memoChars -= key.length + value.length;
    }
  }
  return clean;
}

/** A library image (`/media/…`) or an https address: the only images a letter may show. */
const LETTER_IMAGE = /^(\/media\/[^\s"'<>]+|https:\/\/[^\s"'<>]+)$/;

/**
 * A letter's rich text (ADR 039): the posts' allowlist, plus the images the letter editor inserts
 * from the media library — `src` a library path or an https address, `alt` kept, nothing else.
 * An image whose source is anything else (data:, javascript:, http:) is dropped.
 */
const letterOptions: sanitizeHtml.IOptions = {
  ...options,
  allowedTags: [...(options.allowedTags as string[]), 'img'],
  allowedAttributes: { ...options.allowedAttributes, img: ['src', 'alt'] },
  allowedSchemesByTag: { img: ['https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  exclusiveFilter: (frame) => (frame.tag === 'img' ? !LETTER_IMAGE.test(frame.attribs.src ?? '') : options.exclusiveFilter!(frame)),
};

export function sanitizeLetterHtml(html: string): string {
  return sanitizeHtml(html ?? '', letterOptions);
}
