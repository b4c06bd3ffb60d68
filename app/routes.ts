import { type RouteConfig, index, layout, route } from '@react-router/dev/routes';

export default [
  layout('routes/site/layout.tsx', [
    index('routes/site/home.tsx'),
    route('a-propos', 'routes/site/about.tsx'),
    route('missions', 'routes/site/missions.tsx'),
    route('nos-actions', 'routes/site/projects.tsx'),
    route('partenaires', 'routes/site/partners.tsx'),
    route('blog', 'routes/site/blog.tsx'),
    route('blog/:postId', 'routes/site/blog-post.tsx'),
    route('contact', 'routes/site/contact.tsx'),
    route('faire-un-don', 'routes/site/donate.tsx'),
    route('devenir-membre', 'routes/site/member.tsx'),
    route('payment/success', 'routes/site/payment-success.tsx'),
    route('payment/cancel', 'routes/site/payment-cancel.tsx'),
    route('confidentialite', 'routes/site/privacy.tsx'),
    route('mentions-legales', 'routes/site/terms.tsx'),
    route('*', 'routes/site/not-found.tsx'),
  ]),
  route('sitemap.xml', 'routes/resources/sitemap.ts'),
  route('robots.txt', 'routes/resources/robots.ts'),
] satisfies RouteConfig;
