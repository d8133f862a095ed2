import { describe, expect, it } from 'vitest';
import { contrastRatio, translator } from '../../src/engine/index.js';
import { brandStylesheet, DARK, fitAccent, initials, LIGHT, type Palette } from '../../src/h3/index.js';
import { POST_STATUSES } from '../../src/schemas/posts.js';

// The design system's exact rules (docs/design.md): contrast in both themes, the accent fitted to each, the words.
describe('the design system', () => {
  for (const [name, p] of [
    ['light', LIGHT],
    ['dark', DARK],
  ] as Array<[string, Palette]>) {
    it(`${name}: text keeps 4.5:1 on every surface, controls 3:1, and every status pill 4.5:1 on its own colour`, () => {
      const low: string[] = [];
      const need = (what: string, fg: string, bg: string, ratio: number) => {
        if (contrastRatio(fg, bg) < ratio) low.push(`${what}: ${contrastRatio(fg, bg).toFixed(2)}`);
      };
      for (const surface of ['bg', 'surface', 'sunken'] as const) {
        need(`ink on ${surface}`, p.ink, p[surface], 4.5);
        need(`muted on ${surface}`, p.muted, p[surface], 4.5);
      }
      need('accent on bg', p.accent, p.bg, 4.5);
      need('accent on surface', p.accent, p.surface, 4.5);
      need('accent ink on accent', p.accentInk, p.accent, 4.5);
      need('danger on its soft', p.danger, p.dangerSoft, 4.5);
      need('ok on its soft', p.ok, p.okSoft, 4.5);
      need('warn on its soft', p.warn, p.warnSoft, 4.5);
      need('control on bg', p.control, p.bg, 3);
      for (const s of POST_STATUSES) need(`status ${s}`, p.status[s].fg, p.status[s].bg, 4.5);
      expect(low).toEqual([]);
    });
  }

  it('a workspace accent keeps its colour in the light theme and is lightened just enough for the dark one', () => {
    // A dark teal (5.5:1 on white) is unreadable on the dark page (about 2.6:1): the dark theme gets a lighter teal.
    expect(contrastRatio('#0f766e', DARK.bg)).toBeLessThan(4.5);
    expect(fitAccent('#0f766e', LIGHT).accent).toBe('#0f766e');
    const dark = fitAccent('#0f766e', DARK);
    expect(contrastRatio(dark.accent, DARK.bg)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(dark.accent, DARK.surface)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(dark.accentInk, dark.accent)).toBeGreaterThanOrEqual(4.5);
    expect(dark.accent).not.toBe('#0f766e');
    const css = brandStylesheet('#0F766E');
    expect(css).toContain(':root { --accent: #0f766e;');
    expect(css).toContain(`:root[data-theme="dark"] { --accent: ${dark.accent};`);
    expect(css).toContain('@media (prefers-color-scheme: dark) { :root:not([data-theme="light"])');
  });

  it('times are said as people say them, and exactly after a year', () => {
    const now = Date.parse('2026-11-27T12:00:00.000Z');
    // (The portal's translator says them, here in English.)
    const relativeTime = (iso: string, at: number) => translator().relativeTime(iso, at);
    const ago = (ms: number) => relativeTime(new Date(now - ms).toISOString(), now);
    expect(ago(10_000)).toBe('just now');
    expect(ago(5 * 60_000)).toBe('5 minutes ago');
    expect(ago(3 * 3_600_000)).toBe('3 hours ago');
    expect(ago(26 * 3_600_000)).toBe('yesterday');
    expect(ago(3 * 86_400_000)).toBe('3 days ago');
    expect(ago(15 * 86_400_000)).toBe('2 weeks ago');
    expect(ago(70 * 86_400_000)).toBe('2 months ago');
    expect(relativeTime('2024-03-14T09:00:00.000Z', now)).toBe('2024-03-14');
  });

  it('initials: the first letters of the first and last words, in any script; an email by its local part', () => {
    expect(initials('Dana Whit')).toBe('DW');
    expect(initials('Kim')).toBe('K');
    expect(initials('María José de la Cruz')).toBe('MC');
    expect(initials('Анна Петрова')).toBe('АП');
    expect(initials('lee.park@shop.example')).toBe('LP');
    expect(initials('!!!')).toBe('?');
  });
});
