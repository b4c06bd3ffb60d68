import type { ImageInfo } from '~/domain/media/media';

interface Props extends Omit<React.ImgHTMLAttributes<HTMLImageElement>, 'src' | 'srcSet' | 'width' | 'height'> {
  image: ImageInfo | undefined;
  alt: string;
  sizes?: string;
  /** The hero and other above-the-fold images load eagerly with high priority; the rest lazily. */
  priority?: boolean;
}

/** An image with its real size (no layout shift) and resized WebP variants. */
export function Img({ image, alt, sizes = '100vw', priority = false, ...rest }: Props) {
  if (!image) return null;
  return (
    <img
      src={image.src}
      srcSet={image.srcSet}
      sizes={image.srcSet ? sizes : undefined}
      width={image.width}
      height={image.height}
      alt={alt}
      loading={priority ? 'eager' : 'lazy'}
      decoding={priority ? 'sync' : 'async'}
      fetchPriority={priority ? 'high' : undefined}
      {...rest}
    />
  );
}
