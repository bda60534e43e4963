/**
 * The one JPEG rendition of a cover that leaves the site: for Open Graph and JSON-LD
 * (social networks prefer 1200 px JPEGs) and for feed readers. One size means one file.
 */
import { getImage } from 'astro:assets';

export const SHARING_WIDTH = 1200;

export async function sharingImage(src: ImageMetadata): Promise<string> {
  const image = await getImage({ src, width: Math.min(SHARING_WIDTH, src.width), format: 'jpg', quality: 75 });
  return image.src;
}
