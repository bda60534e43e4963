/**
 * The newsroom's compose form without script: every button posts the whole form, and the
 * state that comes back is the one typed, with the stories added, moved or removed; a save
 * checks everything and names the field that is wrong. And the words of the counts.
 */
import { describe, expect, it } from 'vitest';
import { STORIES_MAX, type IssueStats } from './issues';
import {
  changeStories,
  composeFields,
  composeState,
  draftOf,
  emptyState,
  parisInputs,
  progressLine,
  readAction,
  readSchedule,
  statsLine,
  storiesField,
  suppressionSource,
} from './newsroom-forms';

const fields = (over: Record<string, string> = {}) =>
  composeFields.parse({
    form: 'compose',
    action: 'save',
    newsletter: 'hebdo',
    subject: 'Objet',
    preheader: '',
    intro: '',
    stories: '',
    segment: 'all',
    ...over,
  });

const always = () => true;

describe('the compose form’s state', () => {
  it('comes back as typed, the stories in order, the textarea’s CRLF as LF, the box ticked or not', () => {
    const state = composeState(
      fields({
        subject: '  Un objet ',
        intro: 'Ligne 1\r\n\r\nLigne 2',
        stories: ' /articles/2026/a  /breves#breve-b\n/dossiers/c ',
        support_block: 'on',
        q: '  école ',
      }),
    );
    expect(state).toEqual({
      newsletter: 'hebdo',
      subject: '  Un objet ',
      preheader: '',
      intro: 'Ligne 1\n\nLigne 2',
      stories: ['/articles/2026/a', '/breves#breve-b', '/dossiers/c'],
      supportBlock: true,
      segment: 'all',
      q: 'école',
    });
    expect(composeState(fields()).supportBlock).toBe(false);
    expect(composeState(fields()).stories).toEqual([]);
  });

  it('carries the stories in one field, as they come back', () => {
    const stories = ['/articles/2026/a', '/breves#breve-b'];
    expect(composeState(fields({ stories: storiesField(stories) })).stories).toEqual(stories);
  });

  it('starts a new issue empty, for everyone, with the support block', () => {
    expect(emptyState('quotidienne')).toMatchObject({ newsletter: 'quotidienne', subject: '', stories: [], segment: 'all', supportBlock: true });
  });
});

describe('the buttons', () => {
  it('are read from their value; anything else is no button', () => {
    expect(readAction('save')).toEqual({ kind: 'save' });
    expect(readAction('search')).toEqual({ kind: 'search' });
    expect(readAction('add:/articles/2026/l-ecole')).toEqual({ kind: 'add', url: '/articles/2026/l-ecole' });
    expect(readAction('add:/breves#breve-ecoles-rurales')).toEqual({ kind: 'add', url: '/breves#breve-ecoles-rurales' });
    expect(readAction('up:3')).toEqual({ kind: 'up', index: 3 });
    expect(readAction('down:0')).toEqual({ kind: 'down', index: 0 });
    expect(readAction('remove:11')).toEqual({ kind: 'remove', index: 11 });
    for (const value of [
      '',
      'delete',
      'up:',
      'up:-1',
      'up:x',
      'up:100',
      'add:',
      'add:https://ailleurs.example/x',
      'add://ailleurs.example/x',
      'add:/articles/<script>',
    ]) {
      expect(readAction(value), value).toBeNull();
    }
  });
});

describe('adding, moving and removing stories', () => {
  const three = ['/a', '/b', '/c'];

  it('adds at the end, once', () => {
    expect(changeStories(three, { kind: 'add', url: '/d' }, always)).toEqual({ ok: true, stories: ['/a', '/b', '/c', '/d'] });
    expect(changeStories(three, { kind: 'add', url: '/b' }, always)).toEqual({ ok: true, stories: three });
  });

  it('refuses a story the site does not publish, and one past the limit', () => {
    expect(changeStories(three, { kind: 'add', url: '/disparu' }, () => false)).toMatchObject({
      ok: false,
      status: 400,
      field: 'stories',
      message: 'Cet article n’existe pas (ou plus) sur le site.',
    });
    const full = Array.from({ length: STORIES_MAX }, (_, i) => `/s${i}`);
    const refused = changeStories(full, { kind: 'add', url: '/encore' }, always);
    expect(refused).toMatchObject({ ok: false, status: 400, field: 'stories' });
    expect(!refused.ok && refused.message).toMatch(/au plus 12 articles/);
  });

  it('moves up and down, the ends staying where they are', () => {
    expect(changeStories(three, { kind: 'up', index: 2 })).toEqual({ ok: true, stories: ['/a', '/c', '/b'] });
    expect(changeStories(three, { kind: 'down', index: 0 })).toEqual({ ok: true, stories: ['/b', '/a', '/c'] });
    expect(changeStories(three, { kind: 'up', index: 0 })).toEqual({ ok: true, stories: three });
    expect(changeStories(three, { kind: 'down', index: 2 })).toEqual({ ok: true, stories: three });
  });

  it('removes one, and never changes the list it was given', () => {
    const given = [...three];
    expect(changeStories(given, { kind: 'remove', index: 1 })).toEqual({ ok: true, stories: ['/a', '/c'] });
    expect(given).toEqual(three);
  });

  it('refuses a position past the list (a page older than the list)', () => {
    for (const kind of ['up', 'down', 'remove'] as const)
      expect(changeStories(three, { kind, index: 3 })).toMatchObject({ ok: false, status: 400, field: 'stories' });
  });
});

describe('saving a draft', () => {
  const state = (over: Partial<ReturnType<typeof emptyState>> = {}) => ({ ...emptyState('hebdo'), subject: 'La semaine', ...over });

  it('gives the issue to store, the brèves’ anchors included', () => {
    const draft = draftOf(state({ subject: '  La semaine  ', stories: ['/articles/2026/a', '/breves#breve-b'], segment: 'supporters' }));
    expect(draft).toEqual({
      ok: true,
      issue: {
        newsletter: 'hebdo',
        subject: 'La semaine',
        preheader: '',
        intro: '',
        stories: ['/articles/2026/a', '/breves#breve-b'],
        supportBlock: true,
        segment: 'supporters',
      },
    });
  });

  it('names the field that is wrong, in French', () => {
    expect(draftOf(state({ subject: '   ' }))).toEqual({ ok: false, status: 400, field: 'subject', message: 'Donnez un objet au numéro.' });
    expect(draftOf(state({ subject: 'x'.repeat(151) }))).toMatchObject({
      ok: false,
      field: 'subject',
      message: 'L’objet ne doit pas dépasser 150 caractères.',
    });
    expect(draftOf(state({ preheader: 'x'.repeat(201) }))).toMatchObject({ ok: false, field: 'preheader' });
    expect(draftOf(state({ intro: 'x'.repeat(20_001) }))).toMatchObject({ ok: false, field: 'intro' });
    expect(draftOf(state({ segment: 'tout-le-monde' }))).toMatchObject({ ok: false, field: 'segment', message: 'Choisissez à qui envoyer ce numéro.' });
    expect(draftOf(state({ newsletter: 'inconnue' }))).toMatchObject({ ok: false, field: 'newsletter' });
    expect(draftOf(state({ stories: ['https://ailleurs.example/x'] }))).toMatchObject({ ok: false, field: 'stories' });
  });
});

describe('the schedule form', () => {
  it('reads the day and the hour in Paris time, summer and winter', () => {
    expect(readSchedule('2026-11-28', '07:00')).toEqual({ ok: true, at: new Date('2026-11-28T06:00:00Z') });
    expect(readSchedule(' 2026-07-14 ', '07:30')).toEqual({ ok: true, at: new Date('2026-07-14T05:30:00Z') });
  });

  it('says which of the two is missing or wrong', () => {
    expect(readSchedule('', '07:00')).toMatchObject({ ok: false, status: 400, field: 'date' });
    expect(readSchedule('2026-11-28', '')).toMatchObject({ ok: false, status: 400, field: 'time' });
    expect(readSchedule('28/11/2026', '07:00')).toMatchObject({ ok: false, status: 400, field: 'date' });
  });

  it('fills the inputs back in Paris time', () => {
    expect(parisInputs(new Date('2026-11-28T06:00:00Z'))).toEqual({ date: '2026-11-28', time: '07:00' });
    expect(parisInputs(new Date('2026-12-31T23:30:00Z'))).toEqual({ date: '2027-01-01', time: '00:30' });
  });
});

describe('the words of a send', () => {
  const stats = (over: Partial<IssueStats> = {}): IssueStats => ({
    recipients: 1210,
    queued: 0,
    sent: 1204,
    refused: 3,
    bounced: 1,
    complained: 0,
    failed: 0,
    skipped: 0,
    unsubscribed: 2,
    ...over,
  });
  const plain = (s: string) => s.replace(/\u202f/g, ' ');

  it('counts in French: the singular up to one', () => {
    expect(plain(statsLine(stats()))).toBe('1 204 envoyés · 3 refusés · 1 rebond · 0 plainte · 2 désinscriptions');
    expect(plain(statsLine(stats({ sent: 1, refused: 0, bounced: 2, complained: 1, unsubscribed: 1 })))).toBe(
      '1 envoyé · 0 refusé · 2 rebonds · 1 plainte · 1 désinscription',
    );
  });

  it('says where a send is, and the failures and skips only when there are', () => {
    expect(plain(progressLine(stats({ sent: 340, queued: 864, refused: 0 })))).toBe('340 envoyés sur 1 210 · 864 en attente');
    expect(plain(progressLine(stats({ sent: 340, queued: 860, refused: 1, failed: 2, skipped: 1 })))).toBe(
      '340 envoyés sur 1 210 · 860 en attente · 1 refusé · 2 échecs · 1 non envoyé (désinscription ou exclusion entre-temps)',
    );
  });

  it('names where a suppression came from', () => {
    expect(suppressionSource('relay')).toBe('Refus du serveur d’envoi');
    expect(suppressionSource('webhook:generic')).toBe('Signalement du relais d’envoi');
    expect(suppressionSource('webhook:mailgun')).toBe('Signalement de Mailgun');
    expect(suppressionSource('staff')).toBe('L’équipe');
  });
});
