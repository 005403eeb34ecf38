import { describe, expect, it } from 'vitest';
import { ensureValidLanguage } from '../charts/uplot';

describe('ensureValidLanguage', () => {
  it('replaces a language Intl rejects (LANG=C gives "C") with en-US', () => {
    const nav = { language: 'C' } as unknown as Navigator;
    expect(() => new Intl.NumberFormat(nav.language)).toThrow();
    ensureValidLanguage(nav);
    expect(nav.language).toBe('en-US');
  });

  it('keeps a valid language', () => {
    const nav = { language: 'de-DE' } as unknown as Navigator;
    ensureValidLanguage(nav);
    expect(nav.language).toBe('de-DE');
  });
});
