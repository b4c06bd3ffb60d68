/** schema.org structured data (JSON-LD) for search engines: the foundation and blog articles. */
export interface NgoInput {
  origin: string;
  name: string;
  description: string;
  logo?: string;
  email?: string;
  phone?: string;
  address?: string;
  sameAs: string[];
}

const abs = (origin: string, url?: string) => (url ? (url.startsWith('http') ? url : `${origin}${url}`) : undefined);

export function ngoJsonLd(input: NgoInput) {
  return {
    '@context': 'https://schema.org',
    '@type': 'NGO',
    '@id': `${input.origin}/#organization`,
    name: input.name,
    url: `${input.origin}/`,
    description: input.description,
    logo: abs(input.origin, input.logo),
    email: input.email || undefined,
    telephone: input.phone || undefined,
    address: input.address ? { '@type': 'PostalAddress', streetAddress: input.address } : undefined,
    sameAs: input.sameAs.length ? input.sameAs : undefined,
  };
}

export interface ArticleInput {
  origin: string;
  url: string;
  title: string;
  description: string;
  image?: string;
  author: string;
  datePublished: string;
  dateModified?: string;
  lang: string;
  publisherName: string;
}

export function articleJsonLd(a: ArticleInput) {
  return {
    '@context': 'https://schema.org',
    '@type': 'Article',
    headline: a.title.slice(0, 110),
    description: a.description,
    image: a.image ? [abs(a.origin, a.image)] : undefined,
    author: { '@type': 'Person', name: a.author },
    datePublished: a.datePublished,
    dateModified: a.dateModified ?? a.datePublished,
    inLanguage: a.lang,
    mainEntityOfPage: a.url,
    publisher: { '@id': `${a.origin}/#organization`, '@type': 'NGO', name: a.publisherName },
  };
}

/** JSON for a <script type="application/ld+json">: `<` escaped so that no value can close the tag. */
export function jsonLdText(data: unknown): string {
  return JSON.stringify(data).replace(/</g, '\\u003c');
}
