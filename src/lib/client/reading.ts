/**
 * What the reading pages' components do in the browser, in the layout's script rather than in a
 * script of each component: the share bar, the video facade and its chapters, the « Écouter »
 * buttons, the supporters-only episodes, the transcripts and the copy buttons of podcast feeds.
 *
 * Why one script: Astro gives each component's script a file of its own, and Lighthouse's
 * simulation of a slow phone (HTTP/1.1, six connections on a 150 ms link) counts every script
 * that arrives and runs before the first paint in the page's LCP: an episode page had nine, an
 * article four (docs/performance.md §2, round 5). Each part is a custom element or listens on the
 * document and acts on `astro:page-load`, so it does nothing on a page without its component, and
 * works on the pages the client router brings in later.
 */
import '../../components/content/share-block';
import '../../components/media/video-facade';
import '../../components/media/video-chapters';
import '../../components/player/listen';
import '../../components/player/supporters-listen';
import '../../components/transcript/transcript';
import '../../components/content/copy-text';
