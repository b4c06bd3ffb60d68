import { expect } from 'vitest';

/**
 * Known XSS payloads (OWASP filter-evasion cheat sheet and friends): script tags, event handlers,
 * javascript:/data:/vbscript: URLs (obfuscated too), SVG and MathML, style tricks, malformed markup.
 */
export const XSS_CORPUS = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=https://xss.example/xss.js></SCRIPT>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<img src=x onerror=alert(1)>',
  '<IMG SRC="javascript:alert(1);">',
  '<p onclick="alert(1)">clic</p>',
  '<strong onmouseover=alert(1)>survol</strong>',
  '<a href="javascript:alert(1)">js</a>',
  '<a href="JaVaScRiPt:alert(1)">js2</a>',
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">js3</a>',
  '<a href="jav&#x09;ascript:alert(1)">js4</a>',
  '<a href=" javascript:alert(1)">js5</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">data</a>',
  '<a href="vbscript:msgbox(1)">vb</a>',
  '<a href="//evil.example">proto-relative</a>',
  '<svg onload=alert(1)><circle r=10 /></svg>',
  '<svg><script>alert(1)</script></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<style>body{background:url("javascript:alert(1)")}</style>',
  '<p style="background-image:url(javascript:alert(1));width:expression(alert(1))">style</p>',
  '<div style="position:fixed;top:0;left:0;width:100%;height:100%">overlay</div>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<object data="data:text/html,<script>alert(1)</script>"></object>',
  '<embed src="https://xss.example/x.swf">',
  '<form action="javascript:alert(1)"><button>go</button></form>',
  '<input autofocus onfocus=alert(1)>',
  '<body onload=alert(1)>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="javascript:alert(1)//">',
  '<link rel=stylesheet href=https://xss.example/x.css>',
  '<video><source onerror=alert(1)></video>',
  '<details open ontoggle=alert(1)>',
  '<a href="https://ok.example" onclick="alert(1)" style="color:red" class="x" id="y" target="_self">ok</a>',
  '<h1 onmouseenter=alert(1) class=big>titre</h1>',
  '"><script>alert(1)</script>',
  "'';!--\"<XSS>=&{()}",
  '<p>non fermé <a href="javascript:alert(1)"',
  '<!--<img src="--><img src=x onerror=alert(1)//">',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
  '<template><script>alert(1)</script></template>',
  '<a href="https://ok.example"><img src=x onerror=alert(1)></a>',
];

/** Nothing in the HTML can run script, load a resource, or restyle the page. */
export function expectHarmless(html: string): void {
  const lower = html.toLowerCase();
  expect(lower).not.toMatch(/<\s*(script|img|svg|math|iframe|object|embed|style|form|input|button|body|meta|base|link|video|source|details|template|noscript|div|xss)\b/);
  // No attribute other than href, target and rel survives, on any element.
  for (const m of html.matchAll(/<([a-z0-9]+)(\s[^>]*)?>/gi)) {
    const attrs = [...(m[2] ?? '').matchAll(/([a-z-]+)\s*=/gi)].map((a) => a[1].toLowerCase());
    for (const a of attrs) expect(['href', 'target', 'rel'], `attribute ${a} on <${m[1]}>`).toContain(a);
  }
  for (const href of html.matchAll(/href="([^"]*)"/gi)) expect(href[1]).toMatch(/^(https?:\/\/|mailto:)/i);
  expect(lower).not.toMatch(/javascript:|vbscript:|data:text|expression\(|onerror|onload|onclick/);
}
