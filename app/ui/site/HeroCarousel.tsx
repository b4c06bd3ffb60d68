import type { ImageInfo } from '~/domain/media/media';
import { useI18n } from '~/lib/i18n';
import { Img } from '~/ui/primitives/Img';

/**
 * The home page's hero. The server renders every slide (the first visible and loaded first); the
 * enhancement script (app/enhance/site.ts) turns them every 5 s and reveals the previous, pause and
 * next buttons when there is more than one image.
 */
export function HeroCarousel({ images, children }: { images: ImageInfo[]; children: React.ReactNode }) {
  const { t } = useI18n();
  const controlClass = 'inline-flex h-11 w-11 items-center justify-center rounded-full bg-black/60 text-white hover:bg-black/80';
  return (
    <section aria-roledescription="carousel" aria-label={t('home.carouselLabel')} data-carousel className="relative isolate overflow-hidden bg-gray-900">
      <div className="absolute inset-0 -z-10">
        {images.map((image, i) => (
          <div
            key={image.src}
            data-slide
            role="group"
            aria-roledescription="slide"
            aria-label={t('home.slide', { n: i + 1, total: images.length })}
            aria-hidden={i !== 0}
            className={`absolute inset-0 transition-opacity duration-1000 ${i === 0 ? 'opacity-100' : 'opacity-0'}`}
          >
            <Img image={image} alt="" priority={i === 0} sizes="100vw" className="h-full w-full object-cover" />
          </div>
        ))}
        <div className="absolute inset-0 bg-gradient-to-r from-black/80 via-black/60 to-black/30" />
      </div>
      {children}
      {images.length > 1 && (
        <div data-carousel-controls className="hidden absolute bottom-4 right-4 items-center gap-2 [&:not(.hidden)]:flex">
          <button type="button" className={controlClass} data-carousel-prev aria-label={t('home.previous')}>
            <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2"><path d="M15 18l-6-6 6-6" /></svg>
          </button>
          <button type="button" className={controlClass} data-carousel-toggle data-pause-label={t('home.pause')} data-play-label={t('home.play')} aria-label={t('home.pause')}>
            <svg data-icon-pause aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="currentColor"><path d="M7 5h4v14H7zM13 5h4v14h-4z" /></svg>
            <svg data-icon-play aria-hidden="true" viewBox="0 0 24 24" className="hidden h-5 w-5" fill="currentColor"><path d="M8 5v14l11-7z" /></svg>
          </button>
          <button type="button" className={controlClass} data-carousel-next aria-label={t('home.next')}>
            <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2"><path d="M9 6l6 6-6 6" /></svg>
          </button>
        </div>
      )}
    </section>
  );
}
