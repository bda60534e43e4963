import { beforeEach, describe, expect, it, vi } from 'vitest';
import { INTENT_EVENT, claimIntent, isClaimed, peekIntent, requestIntent, takeIntent } from './intents';

// The directives and the islands share these through window and document; Node has neither.
beforeEach(() => {
  vi.stubGlobal('window', {});
  vi.stubGlobal('document', new EventTarget());
});

describe('intents', () => {
  it('tells whoever waits on a name, and keeps the request until the island takes it', () => {
    const heard: string[] = [];
    document.addEventListener(INTENT_EVENT, (event) => heard.push((event as CustomEvent<string>).detail));
    expect(peekIntent('search')).toBeUndefined();
    const intent = requestIntent('search');
    intent.text += 'log';
    requestIntent('search').text += 'ement';
    expect(heard).toEqual(['search', 'search']);
    expect(peekIntent('player')).toBeUndefined();
    expect(takeIntent('search')).toEqual({ text: 'logement' });
    expect(takeIntent('search')).toBeUndefined();
  });

  it('counts the islands serving a name, an old page’s release coming after the next page’s claim', () => {
    const oldPage = claimIntent('search');
    const nextPage = claimIntent('search');
    oldPage();
    oldPage();
    expect(isClaimed('search')).toBe(true);
    nextPage();
    expect(isClaimed('search')).toBe(false);
  });
});
