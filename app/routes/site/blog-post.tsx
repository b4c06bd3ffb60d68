import { data } from 'react-router';
import type { Route } from './+types/blog-post';
import { feedLink } from '~/domain/blog/feed';
import { POST_TYPE } from '~/domain/blog/posts.server';
import { previewPost } from '~/domain/blog/preview.server';
import { useI18n } from '~/lib/i18n';
import { detectLang, messagesFor } from '~/lib/i18n.server';
import { pageHeaders, pageMeta } from '~/lib/page-meta';
import { db, runtime } from '~/lib/runtime.server';
import { ButtonLink } from '~/ui/primitives/ButtonLink';
import { Img } from '~/ui/primitives/Img';
import { RichText } from '~/ui/primitives/RichText';
import { JsonLd } from '~/ui/site/JsonLd';
import { PreviewBanner } from '~/ui/site/PreviewBanner';
import { previewFor } from './preview.server';
import { langUrl } from '~/lib/seo';
import { articleJsonLd } from '~/lib/structured-data';
import { publishedImage, publishedPost } from './published.server';
import { SiteLink } from '~/ui/primitives/links';

export const headers = pageHeaders;

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { lang } = detectLang(request);
  const { preview, headers } = await previewFor(request, context, { type: POST_TYPE, id: params.postId }, 'blog');
  const post = preview ? await previewPost(db(), params.postId, lang) : await publishedPost(params.postId, lang);
  if (!post) return data({ post: null, article: null, preview: false }, { status: 404, headers });
  const origin = runtime().publicUrl ?? new URL(request.url).origin;
  const image = await publishedImage(post.image);
  const article = articleJsonLd({
    origin,
    url: langUrl(origin, `/blog/${encodeURIComponent(post.id)}`, lang),
    title: post.title,
    description: post.excerpt,
    image: image?.src,
    author: post.author,
    datePublished: post.date,
    lang,
    publisherName: messagesFor(lang).site.name,
  });
  return data({ post: { ...post, image }, article: preview ? null : article, preview }, { headers });
}

export const meta: Route.MetaFunction = (args) => [
  ...pageMeta(args, (i18n) => {
    const post = args.loaderData?.post;
    if (!post) return { title: `${i18n.t('blog.notFound')} | ${i18n.t('blog.name')}`, fullTitle: true, description: i18n.t('blog.notFoundText') };
    // The article title followed by the blog name; the excerpt as description.
    const title = `${post.title} | ${i18n.t('blog.name')}`;
    return { title, fullTitle: true, description: post.excerpt, image: post.image?.src, type: 'article', preview: args.loaderData?.preview };
  }),
  feedLink(args.matches),
];

export default function BlogPost({ loaderData }: Route.ComponentProps) {
  const { t, formatDate } = useI18n();
  const { post } = loaderData;
  if (!post) {
    return (
      <div className="mx-auto max-w-3xl px-4 py-24 text-center sm:px-6">
        <h1 className="text-3xl font-bold">{t('blog.notFound')}</h1>
        <p className="mt-4 text-gray-700">{t('blog.notFoundText')}</p>
        <ButtonLink to="/blog" className="mt-8">
          {t('blog.back')}
        </ButtonLink>
      </div>
    );
  }
  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6">
      {loaderData.preview && <PreviewBanner className="mb-6" />}
      {loaderData.article && <JsonLd data={loaderData.article} />}
      <SiteLink to="/blog" className="inline-flex min-h-11 items-center gap-1 font-semibold text-brand-700 underline">
        <span aria-hidden="true">←</span> {t('blog.back')}
      </SiteLink>
      <p className="mt-6 text-sm font-semibold uppercase tracking-wide text-brand-700">{post.category}</p>
      <h1 className="mt-2 text-4xl font-extrabold leading-tight">{post.title}</h1>
      <p className="mt-3 text-gray-700">
        {t('blog.by', { author: post.author })} · <time dateTime={post.date}>{formatDate(post.date)}</time>
      </p>
      <Img image={post.image} alt="" priority sizes="(min-width: 768px) 768px, 100vw" className="mt-8 max-h-[500px] w-full rounded-xl object-cover" />
      <RichText html={post.content} className="mt-8 text-lg text-gray-800" />
    </article>
  );
}
