import { describe, expect, it } from 'vitest';
import { jsonLdText, ngoJsonLd } from '~/lib/structured-data';

describe('structured data', () => {
  it('cannot close its script tag, whatever an editor typed', () => {
    const text = jsonLdText({ name: '</script><script>alert(1)</script>' });
    expect(text).not.toContain('</script>');
    expect(JSON.parse(text).name).toBe('</script><script>alert(1)</script>');
  });

  it('makes the logo absolute and leaves out what is unknown', () => {
    const ngo = ngoJsonLd({ origin: 'https://x.org', name: 'F', description: 'd', logo: '/media/l.png', sameAs: [] });
    expect(ngo.logo).toBe('https://x.org/media/l.png');
    expect(JSON.parse(jsonLdText(ngo))).not.toHaveProperty('sameAs');
  });
});
