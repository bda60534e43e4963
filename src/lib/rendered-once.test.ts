import { afterEach, describe, expect, it } from 'vitest';
import { forgetRenderedParts, ownPrefixes, renderedOnce } from './rendered-once';

const island = (prefix: string, inner = '') => `<astro-island uid="Zq3" prefix="${prefix}" component-url="/_astro/X.js" ssr>${inner}</astro-island>`;

afterEach(forgetRenderedParts);

describe('ownPrefixes', () => {
  it('names the islands of a part after it, in their order, whatever numbers the page gave them', () => {
    const html = `<header>${island('r2')}<div>${island('r3')}</div></header>${island('r5')}`;
    expect(ownPrefixes('header', html)).toBe(`<header>${island('header0')}<div>${island('header1')}</div></header>${island('header2')}`);
  });

  it('leaves text that merely looks like a prefix alone', () => {
    const html = `<p data-prefix="r1">prefix="r1"</p>${island('r0')}`;
    expect(ownPrefixes('footer', html)).toBe(`<p data-prefix="r1">prefix="r1"</p>${island('footer0')}`);
  });

  it('takes out the inline rule Astro writes before the first island it renders, which global.css holds', () => {
    const style = '<style>astro-island,astro-slot,astro-static-slot{display:contents}</style>';
    expect(ownPrefixes('footer', `${style}<footer>${island('r0')}</footer>`)).toBe(`<footer>${island('footer0')}</footer>`);
    expect(ownPrefixes('footer', '<style>.own{color:red}</style><footer></footer>')).toBe('<style>.own{color:red}</style><footer></footer>');
  });

  it('refuses a part whose island already wrote ids from its prefix (React’s useId)', () => {
    expect(ownPrefixes('header', island('r4', '<label for="_r4R_1_">Nom</label><input id="_r4R_1_">'))).toBeNull();
    // An id from another island's prefix is not this part's concern.
    expect(ownPrefixes('header', island('r4', '<input id="_r7R_1_">'))).toBe(island('header0', '<input id="_r7R_1_">'));
  });
});

describe('renderedOnce', () => {
  it('renders a part the first time only, then gives the same HTML', async () => {
    let renders = 0;
    const render = async () => `<nav>${++renders}</nav>${island(`r${renders}`)}`;
    const first = await renderedOnce('header', '', render);
    expect(first).toBe(`<nav>1</nav>${island('header0')}`);
    expect(await renderedOnce('header', '', render)).toBe(first);
    expect(renders).toBe(1);
  });

  it('renders a new version anew, and keeps each part apart', async () => {
    let renders = 0;
    const render = async () => `<p>${++renders}</p>`;
    expect(await renderedOnce('footer', '2026', render)).toBe('<p>1</p>');
    expect(await renderedOnce('footer', '2027', render)).toBe('<p>2</p>');
    expect(await renderedOnce('header', '2026', render)).toBe('<p>3</p>');
    expect(await renderedOnce('footer', '2026', render)).toBe('<p>1</p>');
  });

  it('renders every time, and says so once, a part that cannot be repeated', async () => {
    const heard: string[] = [];
    let renders = 0;
    const render = async () => island('r0', `<input id="_r0R_${++renders}_">`);
    expect(await renderedOnce('header', '', render, (part) => heard.push(part))).toBe(island('r0', '<input id="_r0R_1_">'));
    expect(await renderedOnce('header', '', render, (part) => heard.push(part))).toBe(island('r0', '<input id="_r0R_2_">'));
    expect(heard).toEqual(['header']);
  });

  it('refuses a name that cannot name a prefix', async () => {
    await expect(renderedOnce('footer-2026', '', async () => '')).rejects.toThrow(/letters only/);
  });
});
