import { expect, test, type Locator, type Page } from '../helpers/e2e';
import { look } from '../helpers/browse';

/**
 * Reading (issue 14): sharing (the browser's share sheet, or plain links to copy, mail and
 * the configured networks), reading time, an émission's chapters (which keep the video
 * facade's privacy rule), grids without orphan cards, author and tag pages grouped by kind,
 * and a phone-sized home page.
 */
const SHOTS = '/work/shots/issue14/reading';
const ARTICLE = '/articles/2026/fin-de-l-arenh-ce-qui-change-pour-l-electricite';
const EMISSION = '/emissions/2026/livreurs-de-nuit-quand-l-algorithme-fixe-la-paie';
const PEERTUBE_EMISSION = '/emissions/2026/marion-delacroix-un-media-sans-actionnaire-rend-des-comptes';
const VIDEO_HOSTS = /^https:\/\/(www\.youtube-nocookie\.com|www\.youtube\.com|videos\.contrechamp\.media)\//;
/** The networks of src/config/site.ts that have a share address. */
const NETWORKS = ['X (Twitter)', 'Mastodon', 'Facebook', 'Bluesky'];

const shareGroup = (page: Page, label: string) => page.getByRole('group', { name: label });

test.describe('sharing', () => {
  test('without a share sheet, an article offers its address to copy, by e-mail and on each configured network; nothing is loaded from them', async ({
    page,
    context,
    baseURL,
  }) => {
    const foreign: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(baseURL!)) foreign.push(request.url());
    });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL! });
    await page.goto(ARTICLE);
    const title = (await page.locator('h1').textContent())!.trim();
    const url = new URL(ARTICLE, baseURL).href;
    expect(await page.evaluate(() => typeof navigator.share)).toBe('undefined');

    const group = shareGroup(page, 'Partager cet article');
    await expect(group).toBeVisible();
    await expect(page.getByRole('button', { name: 'Partager cet article' })).toBeHidden();

    // E-mail: the title as subject, the address in the body.
    const mail = new URL((await group.getByRole('link', { name: 'Envoyer par e-mail' }).getAttribute('href'))!);
    expect(mail.protocol).toBe('mailto:');
    expect(mail.searchParams.get('subject')).toBe(title);
    expect(mail.searchParams.get('body')).toContain(url);

    // One link per configured network, each carrying this page's address, opening elsewhere.
    for (const network of NETWORKS) {
      const link = group.getByRole('link', { name: `Partager sur ${network}` });
      const href = new URL((await link.getAttribute('href'))!);
      expect(href.protocol, network).toBe('https:');
      expect([...href.searchParams.values()].join(' '), network).toContain(url);
      await expect(link).toHaveAttribute('target', '_blank');
      await expect(link).toHaveAttribute('rel', /noopener/);
    }
    expect(await group.getByRole('link').count()).toBe(NETWORKS.length + 1);

    // Copy: the address lands in the clipboard, and the reader is told.
    await group.getByRole('button', { name: 'Copier le lien' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Lien copié' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);

    // No third-party script, tracker or counter: every request stayed on the site.
    expect(foreign).toEqual([]);
  });

  test('where the browser has a share sheet, one « Partager » button opens it with the page’s title and address', async ({ page, baseURL }) => {
    await page.addInitScript(() => {
      const w = window as Window & { shared?: ShareData[] };
      w.shared = [];
      Object.defineProperty(navigator, 'share', {
        configurable: true,
        value: async (data: ShareData) => {
          w.shared!.push(data);
        },
      });
    });
    await page.goto(EMISSION);
    const title = (await page.locator('h1').textContent())!.trim();
    const button = page.getByRole('button', { name: 'Partager cette émission' });
    await expect(button).toBeVisible();
    // The links give way to the sheet, which offers the reader's own apps.
    await expect(shareGroup(page, 'Partager cette émission')).toBeHidden();
    await button.click();
    await expect
      .poll(() => page.evaluate(() => (window as Window & { shared?: ShareData[] }).shared))
      .toEqual([{ title, url: new URL(EMISSION, baseURL).href }]);
  });

  test('a brève folds its share links under « Partager », which opens to the same links', async ({ page, baseURL }) => {
    await page.goto('/breves');
    const breve = page.locator('article.breve').first();
    const anchor = await breve.getAttribute('id');
    await breve.locator('summary', { hasText: 'Partager' }).click();
    const list = breve.getByRole('list', { name: 'Partager cette brève' });
    await expect(list).toBeVisible();
    const x = new URL((await list.getByRole('link', { name: /^X \(Twitter\)/ }).getAttribute('href'))!);
    // The brève's own address: its anchor in the list.
    expect(x.searchParams.get('url')).toBe(new URL(`/breves#${anchor}`, baseURL).href);
    await expect(list.getByRole('button', { name: 'Copier le lien' })).toBeVisible();
  });

  test('share links are on dossiers and episodes too', async ({ page }) => {
    await page.goto('/dossiers');
    await page.locator('main a[href^="/dossiers/"]').first().click();
    await expect(shareGroup(page, 'Partager ce dossier')).toBeVisible();
    await page.goto('/podcasts/a-contre-courant/juger-en-vingt-minutes');
    await expect(shareGroup(page, 'Partager cet épisode')).toBeVisible();
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the share links still work as links; copying, which needs a script, is not offered', async ({ page, baseURL }) => {
    await page.goto(ARTICLE);
    const group = shareGroup(page, 'Partager cet article');
    await expect(group.getByRole('link', { name: 'Envoyer par e-mail' })).toBeVisible();
    for (const network of NETWORKS) await expect(group.getByRole('link', { name: `Partager sur ${network}` })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Copier le lien' })).toBeHidden();
    await expect(page.getByRole('button', { name: 'Partager cet article' })).toBeHidden();
    // The page's own address is what is shared.
    expect(await group.getByRole('link', { name: 'Partager sur Facebook' }).getAttribute('href')).toContain(encodeURIComponent(new URL(ARTICLE, baseURL).href));
  });

  test('a chapter is a link to the video on its host at that time, and nothing loads from the host before a click', async ({ page }) => {
    const hostRequests: string[] = [];
    page.on('request', (request) => {
      if (VIDEO_HOSTS.test(request.url())) hostRequests.push(request.url());
    });
    await page.goto(EMISSION);
    const chapter = page.getByRole('region', { name: 'Au sommaire' }).getByRole('link', { name: /Le tableur de Moussa Traoré/ });
    const href = new URL((await chapter.getAttribute('href'))!);
    expect(href.origin).toBe('https://www.youtube.com');
    expect(href.searchParams.get('t')).toBe('340s');
    expect(hostRequests).toEqual([]);
  });
});

test.describe('reading time and chapters', () => {
  test('an article says how long it takes to read, from its words at about 230 a minute', async ({ page }) => {
    await page.goto(ARTICLE);
    const shown = (await page
      .locator('.byline')
      .getByText(/min de lecture$/)
      .textContent())!;
    expect(shown).toMatch(/^\d+\u202fmin de lecture$/);
    const words = await page.locator('.story-body').evaluate((el) => (el as HTMLElement).innerText.split(/\s+/).filter((t) => /[\p{L}\p{N}]/u.test(t)).length);
    expect(Math.abs(Number.parseInt(shown, 10) - Math.max(1, Math.round(words / 230)))).toBeLessThanOrEqual(1);
    // Émissions give their duration instead.
    await page.goto(EMISSION);
    await expect(page.locator('.byline')).toContainText('Durée');
    await expect(page.locator('.byline')).not.toContainText('de lecture');
  });

  test('a chapter loads the video at its time on click only, and another chapter reloads it at its own', async ({ page }) => {
    const hostRequests: string[] = [];
    await page.route(VIDEO_HOSTS, (route) => {
      hostRequests.push(route.request().url());
      return route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>lecteur</title><p>lecteur vidéo</p>' });
    });
    await page.goto(EMISSION);
    await page.waitForLoadState('networkidle');
    const chapters = page.getByRole('region', { name: 'Au sommaire' });
    await expect(chapters.getByRole('listitem')).toHaveCount(6);
    const facade = page.locator('video-facade');
    await expect(facade.locator('iframe')).toHaveCount(0);
    expect(hostRequests, 'no request to the video host before a click').toEqual([]);

    await chapters.getByRole('link', { name: /Le tableur de Moussa Traoré/ }).click();
    const frame = facade.locator('iframe');
    await expect(frame).toHaveCount(1);
    const src = new URL((await frame.getAttribute('src'))!);
    expect(src.origin).toBe('https://www.youtube-nocookie.com');
    expect(src.searchParams.get('start')).toBe('340');
    expect(src.searchParams.get('autoplay')).toBe('1');
    await expect.poll(() => hostRequests.some((u) => new URL(u).searchParams.get('start') === '340')).toBe(true);
    // The page stayed here, with the player in view.
    await expect(page).toHaveURL(new RegExp(`${EMISSION}$`));
    await expect(frame).toBeInViewport();

    await chapters.getByRole('link', { name: /La réponse de Rapidéo/ }).click();
    await expect(facade.locator('iframe')).toHaveCount(1);
    await expect.poll(async () => new URL((await frame.getAttribute('src'))!).searchParams.get('start')).toBe(String(31 * 60 + 30));
  });

  test('feed readers get an émission’s chapters too, each a link to the video at its time', async ({ request }) => {
    const feed = await (await request.get('/rss_emissions.xml')).text();
    const item = feed.split('<item>').find((i) => i.includes(EMISSION))!;
    expect(item).toContain('Au sommaire');
    expect(item).toMatch(/<a href="https:\/\/www\.youtube\.com\/watch\?v=[\w-]+&amp;t=340s">5:40<\/a> — Le tableur de Moussa Traoré/);
  });

  test('a PeerTube émission’s chapter starts its player at the time, in the form PeerTube reads', async ({ page }) => {
    await page.route(VIDEO_HOSTS, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>lecteur</title>' }));
    await page.goto(PEERTUBE_EMISSION);
    const chapter = page.getByRole('region', { name: 'Au sommaire' }).getByRole('link').nth(1);
    const time = (await chapter.locator('.chapter-time').textContent())!.trim();
    const [m, s] = time.split(':').map(Number);
    await chapter.click();
    const src = new URL((await page.locator('video-facade iframe').getAttribute('src'))!);
    expect(src.origin).toBe('https://videos.contrechamp.media');
    expect(src.searchParams.get('start')).toBe(`${m}m${s}s`);
  });
});

/** Cards of a grid, by row: the number of cards on each line of the grid. */
async function rowCounts(grid: Locator): Promise<number[]> {
  const tops = await grid.evaluate((el) => [...el.children].map((c) => Math.round(c.getBoundingClientRect().top)));
  const rows = new Map<number, number>();
  for (const top of tops) rows.set(top, (rows.get(top) ?? 0) + 1);
  return [...rows.entries()].sort((a, b) => a[0] - b[0]).map(([, n]) => n);
}

/** Leaves `count` cards in the grid, cloning the first ones when it holds fewer. */
async function setCardCount(grid: Locator, count: number): Promise<void> {
  await grid.evaluate((el, n) => {
    const cards = [...el.children];
    while (el.children.length > n) el.lastElementChild!.remove();
    for (let i = el.children.length; i < n; i++) el.append(cards[i % cards.length]!.cloneNode(true));
  }, count);
}

test.describe('layouts', () => {
  for (const width of [1280, 800]) {
    test(`the home page’s grids leave no card alone on its row, whatever the count (${width} px)`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/');
      const grids = {
        émissions: page.locator('#emissions-title').locator('xpath=ancestor::section[1]').locator('.grid-balanced'),
        épisodes: page.locator('#podcasts-title').locator('xpath=ancestor::section[1]').locator('.grid-balanced-4'),
      };
      for (const [name, grid] of Object.entries(grids)) {
        // As built, then with every count from one to ten.
        const built = await rowCounts(grid);
        expect(built.length, `${name}: as built`).toBeGreaterThan(0);
        if (built.reduce((a, b) => a + b) > 1) expect(built, `${name}: as built`).not.toContain(1);
        for (let count = 1; count <= 10; count++) {
          await setCardCount(grid, count);
          const rows = await rowCounts(grid);
          expect(
            rows.reduce((a, b) => a + b),
            `${name}, ${count}`,
          ).toBe(count);
          if (count === 1) {
            // A single card takes the whole row.
            const [gridBox, cardBox] = await Promise.all([grid.boundingBox(), grid.locator('> *').first().boundingBox()]);
            expect(Math.round(cardBox!.width), `${name}, 1`).toBe(Math.round(gridBox!.width));
          } else {
            expect(rows, `${name}, ${count} cards`).not.toContain(1);
          }
        }
      }
    });
  }

  test('author and tag pages group their items by kind, each under its heading', async ({ page }) => {
    const kindOf = (href: string) => (href.startsWith('/podcasts/') ? 'Épisodes de podcast' : href.startsWith('/breves') ? 'Brèves' : 'stories');
    for (const path of ['/tags/travail', '/auteurs/karim-benali', '/tags/climat']) {
      await page.goto(path);
      const headings = (await page.locator('main .kind-group h2').allTextContents()).map((t) => t.trim());
      expect(headings.length, path).toBeGreaterThanOrEqual(2);
      // Always in the same order: stories, brèves, episodes.
      const order = ['stories', 'Brèves', 'Épisodes de podcast'];
      const ranks = headings.map((h) => order.indexOf(/Articles|Émissions/.test(h) ? 'stories' : h));
      expect(ranks, path).toEqual([...ranks].sort((a, b) => a - b));
      expect(ranks, path).not.toContain(-1);
      for (const group of await page.locator('main .kind-group').all()) {
        const heading = (await group.locator('h2').textContent())!.trim();
        const hrefs = await group.locator('.teaser-title a').evaluateAll((links) => links.map((a) => a.getAttribute('href')!));
        expect(hrefs.length, `${path} · ${heading}`).toBeGreaterThan(0);
        for (const href of hrefs) {
          const kind = kindOf(href);
          expect(kind === 'stories' ? /Articles|Émissions/.test(heading) : kind === heading, `${path} · ${heading}: ${href}`).toBe(true);
        }
      }
    }
  });

  test('on a phone, the home page is a few screens, not a 10,000 px scroll: episode covers are thumbnails', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    const episodes = page.locator('#podcasts-title').locator('xpath=ancestor::section[1]').locator('.teaser-media img');
    expect(await episodes.count()).toBeGreaterThan(0);
    for (const cover of await episodes.all()) expect((await cover.boundingBox())!.width).toBeLessThanOrEqual(120);
    // Before: 10,172 px (twelve screens of 844 px). The bound: about eight screens, which
    // the page passes with the whole demo (six émissions, four episodes, the dossier, the brèves).
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    expect(height).toBeLessThan(7000);
  });

  test('on a phone, a thumbnail is fetched at a thumbnail’s size, not at the screen’s width', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    const images = page.locator('main .teaser-media img');
    for (const image of await images.all()) {
      await image.scrollIntoViewIfNeeded();
      await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    }
    const shown = await images.evaluateAll((all: HTMLImageElement[]) =>
      all.map((img) => ({ width: img.getBoundingClientRect().width, file: img.naturalWidth })),
    );
    const thumbnails = shown.filter((image) => image.width <= 130);
    // The first article, the other émissions and every episode (the lead and the first émission are full width).
    expect(thumbnails.length).toBeGreaterThanOrEqual(6);
    // The smallest file there is (320 px) for a 128 px thumbnail; the screen's width (358 px) took 640 or 720.
    for (const image of thumbnails) expect(image.file).toBeLessThanOrEqual(320);
    expect(shown.some((image) => image.width > 300 && image.file > 320)).toBe(true);
  });
});

test('a reading page runs two scripts of its own before the reader does anything: the router’s and the layout’s, the components’ within it', async ({
  page,
}) => {
  for (const path of ['/podcasts/a-contre-courant/juger-en-vingt-minutes', EMISSION, ARTICLE]) {
    await page.goto(path);
    const scripts = await page.locator('script[type="module"][src]').evaluateAll((all: HTMLScriptElement[]) => all.map((s) => new URL(s.src).pathname));
    // Audience measurement, when a domain is set, is a script of its own (src/components/analytics/).
    expect(
      scripts.filter((src) => !/\/Analytics\./.test(src)),
      path,
    ).toHaveLength(2);
  }
  // The components still work from the layout's script: the episode's « Écouter » became a button, the share bar its copy button.
  await expect(page.getByRole('button', { name: 'Copier le lien' })).toBeVisible();
});

test('screenshots: article, émission, home, author, tag, dossier, brèves and episode pages', async ({ page }) => {
  test.setTimeout(120_000);
  await page.route(VIDEO_HOSTS, (route) => route.abort());
  const pages: [string, string][] = [
    [ARTICLE, 'article'],
    [EMISSION, 'emission'],
    ['/', 'home'],
    ['/auteurs/karim-benali', 'author'],
    ['/tags/travail', 'tag'],
    ['/dossiers/crise-du-logement', 'dossier'],
    ['/breves', 'breves'],
    ['/podcasts/a-contre-courant/juger-en-vingt-minutes', 'episode'],
  ];
  for (const [path, name] of pages) {
    await page.goto(path);
    // Every image, lazy ones included, so that full-page captures show them.
    await page.evaluate(() =>
      Promise.all(
        [...document.images].map((i) => {
          i.loading = 'eager';
          return i.decode().catch(() => undefined);
        }),
      ),
    );
    await look(page, SHOTS, name);
  }
});
