import type { Route } from './+types/blog';
import { feedLink } from '~/domain/blog/feed';
import { useI18n } from '~/lib/i18n';
import { detectLang } from '~/lib/i18n.server';
import { pageMeta } from '~/lib/page-meta';
import { Img } from '~/ui/primitives/Img';
import { SiteLink } from '~/ui/primitives/links';
import { SignupForm } from '~/ui/site/SignupForm';
import { publishedImages, publishedPosts } from './published.server';

export async function loader({ request }: Route.LoaderArgs) {
  const { lang } = detectLang(request);
  const posts = await publishedPosts(lang);
  const images = await publishedImages(posts.map((p) => p.image));
  return { posts: posts.map((p) => ({ ...p, image: images.get(p.image) })) };
}

export const meta: Route.MetaFunction = (args) => [
  ...pageMeta(args, (i18n) => ({ title: i18n.t('blog.title'), description: i18n.t('blog.metaDescription') })),
  feedLink(args.matches),
];

export default function Blog({ loaderData }: Route.ComponentProps) {
  const { t, formatDate } = useI18n();
  return (
    <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6">
      <h1 className="text-4xl font-extrabold">{t('blog.title')}</h1>
      <p className="mt-3 max-w-2xl text-lg text-gray-700">{t('blog.intro')}</p>
      {loaderData.posts.length === 0 ? (
        <p className="mt-10 text-gray-700">{t('blog.empty')}</p>
      ) : (
        <ul className="mt-10 grid gap-8 md:grid-cols-2 lg:grid-cols-3">
          {loaderData.posts.map((post) => (
            <li key={post.id}>
              <article className="flex h-full flex-col overflow-hidden rounded-xl border border-gray-200 shadow-sm">
                <Img image={post.image} alt="" sizes="(min-width: 1024px) 33vw, (min-width: 768px) 50vw, 100vw" className="aspect-[16/9] w-full object-cover" />
                <div className="flex flex-1 flex-col p-6">
                  <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">{post.category}</p>
                  <h2 className="mt-2 text-xl font-bold">
                    <SiteLink to={`/blog/${post.id}`} className="hover:underline">
                      {post.title}
                    </SiteLink>
                  </h2>
                  <p className="mt-1 text-sm text-gray-700">
                    <time dateTime={post.date}>{formatDate(post.date)}</time> · {t('blog.by', { author: post.author })}
                  </p>
                  <p className="mt-3 flex-1 text-gray-800">{post.excerpt}</p>
                  <SiteLink to={`/blog/${post.id}`} className="mt-4 font-semibold text-brand-700 underline" aria-label={`${t('blog.readMore')} : ${post.title}`}>
                    {t('blog.readMore')}
                  </SiteLink>
                </div>
              </article>
            </li>
          ))}
        </ul>
      )}
      <section aria-labelledby="blog-newsletter" className="mt-12 max-w-xl rounded-xl bg-brand-50 p-6">
        <h2 id="blog-newsletter" className="text-xl font-bold">{t('newsletter.title')}</h2>
        <p className="mt-1 text-gray-800">{t('newsletter.intro')}</p>
        <SignupForm id="blog-signup" from="/blog" />
      </section>
    </div>
  );
}
