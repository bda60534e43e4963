import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILD_DATA_FILE, readBuildData, type BuildData } from './build-data';
import { pickLatestStories } from './latest-stories';

const story = (slug: string, scheme: string, published: string, draft = false) => ({
  data: { slug, title: `Titre ${slug}`, scheme, published: new Date(published), draft },
});

describe('what pages rendered on demand get from the build', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('the 404 offers the newest published articles and émissions, newest first', () => {
    const picked = pickLatestStories(
      [
        story('ancien', 'articles', '2025-01-01T10:00:00Z'),
        story('breve', 'breves', '2026-06-01T10:00:00Z'),
        story('brouillon', 'articles', '2026-06-02T10:00:00Z', true),
        story('emission', 'emissions', '2026-05-01T10:00:00Z'),
        story('recent', 'articles', '2026-05-20T10:00:00Z'),
      ],
      2,
    );
    expect(picked.map((s) => s.url)).toEqual(['/articles/2026/recent', '/emissions/2026/emission']);
  });

  it('reads what the build wrote, dates included, and offers nothing without it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'build-data-'));
    dirs.push(dir);
    expect(readBuildData(dir)).toEqual({ latestStories: [], supportersEpisodes: [], pages: {} });
    const data: BuildData = {
      latestStories: pickLatestStories([story('recent', 'articles', '2026-05-20T10:00:00Z')]),
      supportersEpisodes: [{ podcast: 'les-voix-du-terrain', slug: 'bonus', filename: 'bonus.mp3' }],
      pages: {
        soutenir: {
          title: 'Je soutiens',
          description: 'Les façons de soutenir',
          updated: new Date('2026-03-01T00:00:00Z'),
          html: '<p>Texte</p>',
          headings: [],
        },
      },
    };
    writeFileSync(join(dir, BUILD_DATA_FILE), JSON.stringify(data));
    const read = readBuildData(dir);
    expect(read).toEqual(data);
    expect(read.latestStories[0]!.published).toBeInstanceOf(Date);
    expect(read.pages['soutenir']!.updated).toBeInstanceOf(Date);
  });
});
