import { DEFAULT_THEME } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { contrastRatio, readableOn, readableShade } from './readable-colors';
import { theme } from './theme';

describe('readable colours', () => {
  it('keeps a colour that already reaches 4.5:1', () => {
    expect(readableOn('#495057', ['#ffffff'])).toBe('#495057');
  });

  it('darkens a bright colour until it reaches 4.5:1 on every background', () => {
    const orange = DEFAULT_THEME.colors.orange;
    expect(contrastRatio(orange[9], orange[1])).toBeLessThan(4.5);
    const text = readableOn(orange[9], [orange[1], '#ffffff']);
    expect(contrastRatio(text, orange[1])).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(text, '#ffffff')).toBeGreaterThanOrEqual(4.5);
  });

  it("the theme's dimmed grey reaches 4.5:1 on white and the grey backgrounds", () => {
    const gray = theme.colors!.gray!;
    for (const background of ['#ffffff', gray[0], gray[1]]) {
      expect(contrastRatio(gray[6], background)).toBeGreaterThanOrEqual(4.5);
    }
  });
});

describe('readableShade', () => {
  it("takes the palette's own darker shade when one passes", () => {
    const red = DEFAULT_THEME.colors.red;
    expect(readableShade(red, 5, ['#ffffff'])).toBe(red[9]);
  });
});
