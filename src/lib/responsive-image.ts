/**
 * The transform options of a responsive WebP image (SPEC §9), shared by the <img> of
 * ResponsiveImage.astro and the <link rel="preload"> of PreloadImage.astro, so that both name
 * the same files.
 */
import { IMAGE_DENSITIES, IMAGE_WIDTHS } from './ui-constants';

export interface ResponsiveImageInput {
  src: ImageMetadata;
  /** Widest CSS width the image is shown at, in px. */
  maxWidth: number;
  /** Width / height ratio to crop to, e.g. 16 / 9. */
  aspect?: number | undefined;
}

/** Candidates are the widths 320/720/960/1024/1140 at densities 1 and 2, up to what the slot can use and the source can give. */
export function responsiveImageOptions({ src, maxWidth, aspect }: ResponsiveImageInput) {
  const candidates = [...new Set(IMAGE_DENSITIES.flatMap((d) => IMAGE_WIDTHS.map((w) => w * d)))].sort((a, b) => a - b);
  const limit = Math.min(src.width, maxWidth * 2);
  let widths = candidates.filter((w) => w <= limit);
  if (widths.length === 0) widths = [Math.min(src.width, candidates[0]!)];
  const largest = widths[widths.length - 1]!;
  const height = aspect ? Math.round(largest / aspect) : Math.round((largest * src.height) / src.width);
  return { src, widths, width: largest, height, format: 'webp' as const, quality: 70 };
}

/** The home page's lead teaser: its image is the largest paint of the page on a phone. */
export const LEAD_TEASER_IMAGE = { maxWidth: 760, sizes: '(min-width: 900px) 60vw, calc(100vw - 2rem)' } as const;
/** Where a teaser's card is one of two or three a row (tablets and wider): its image's width there. */
const TEASER_WIDE_SIZES = '(min-width: 1180px) 380px, (min-width: 700px) 50vw';
/** Every other teaser with an image. */
export const TEASER_IMAGE = { maxWidth: 380, sizes: `${TEASER_WIDE_SIZES}, calc(100vw - 2rem)` } as const;
/**
 * A teaser whose cover is a thumbnail on phones (the lists marked `thumbs-mobile`, TeaserCard.astro:
 * 8rem wide under 600 px, 5.5rem for an episode's square cover). With the full width there, a phone
 * fetched the 720 px file (20 KB) for a 128 px thumbnail.
 */
export function teaserThumbImage(episode: boolean) {
  return { maxWidth: TEASER_IMAGE.maxWidth, sizes: `${TEASER_WIDE_SIZES}, (min-width: 600px) calc(100vw - 2rem), ${episode ? '5.5rem' : '8rem'}` };
}
