import { darken, luminance, type CSSVariablesResolver } from '@mantine/core';

/** WCAG AA for normal text is 4.5:1; a little over it absorbs rounding in the browser's colour maths. */
const AA = 4.6;

export const contrastRatio = (a: string, b: string) => {
  const [lighter, darker] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (lighter + 0.05) / (darker + 0.05);
};

/** `color`, darkened in small steps until it reaches WCAG AA contrast against every background. */
export function readableOn(color: string, backgrounds: readonly string[]): string {
  for (let amount = 0; amount < 1; amount += 0.05) {
    const candidate = amount === 0 ? color : darken(color, amount);
    if (backgrounds.every((background) => contrastRatio(candidate, background) >= AA)) return candidate;
  }
  return '#000000';
}

/**
 * The first shade of a palette from `from` on that reaches AA against every background, keeping the
 * palette's own hue where it can; past its darkest shade, that shade darkened.
 */
export function readableShade(shades: readonly string[], from: number, backgrounds: readonly string[]) {
  const passing = shades
    .slice(from)
    .find((shade) => backgrounds.every((background) => contrastRatio(shade, background) >= AA));
  return passing ?? readableOn(shades[shades.length - 1], backgrounds);
}

/**
 * Mantine's variant colours (filled buttons and badges with white text, light badges, outline chips)
 * taken from the bright default palettes fail AA: white on red.5 is 2.8:1, orange.9 on orange.1 3.6:1,
 * gray.5 outlines 2.1:1. Each colour's variant variables move to its first shade that passes (darkened
 * past the last), so every `color="…"` in the app stays readable without picking shades per screen.
 */
export const readableColorsResolver: CSSVariablesResolver = (theme) => {
  const light: Record<string, string> = {};
  const white = theme.white;
  const page = theme.colors.gray[0];
  for (const [name, shades] of Object.entries(theme.colors)) {
    if (name === 'dark') continue;
    const filled = readableShade(shades, 5, [white]);
    light[`--mantine-color-${name}-filled`] = filled;
    light[`--mantine-color-${name}-filled-hover`] = darken(filled, 0.1);
    light[`--mantine-color-${name}-light-color`] = readableShade(shades, 9, [shades[1], page, white]);
    light[`--mantine-color-${name}-outline`] = readableShade(shades, 6, [page, white]);
  }
  // FileInput and the like show their placeholder as text, which must be readable too.
  light['--mantine-color-placeholder'] = readableShade(theme.colors.gray, 5, [white]);
  // A field's error message under it (red.6 on white is 3.3:1).
  light['--mantine-color-error'] = readableShade(theme.colors.red, 6, [white, page]);
  return { variables: {}, light, dark: {} };
};
