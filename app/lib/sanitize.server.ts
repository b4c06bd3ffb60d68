import sanitizeHtml from 'sanitize-html';

/**
 * The allowlist matches the rich editor's toolbar (SPEC.md): headings 1–3, bold, italic, underline,
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

export function sanitizeRichHtml(html: string): string {
  return sanitizeHtml(html ?? '', options);
}
