import { jsonLdText } from '~/lib/structured-data';

/** Structured data is data, not script: browsers do not run it, so the CSP does not apply to it. */
export function JsonLd({ data }: { data: unknown }) {
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLdText(data) }} />;
}
