import { describe, expect, it } from 'vitest';
import { variantName } from './resize';

describe('variantName', () => {
  it('names what the thumbnail cache has always held as before', () => {
    expect(variantName({ w: 400 }, 'webp')).toBe('w400.webp');
    expect(variantName({ h: 100 }, 'png')).toBe('h100.png');
    expect(variantName({ w: 640, h: 360 }, 'jpeg')).toBe('w640h360.jpeg');
  });

  it('adds the fit and quality that change the pixels, and nothing that does not', () => {
    expect(variantName({ w: 640, h: 360, fit: 'cover', q: 60 }, 'jpeg')).toBe('w640h360-cover-q60.jpeg');
    expect(variantName({ w: 640, h: 360, fit: 'inside' }, 'webp')).toBe('w640h360.webp');
    // A fit needs both sides; PNG is lossless; the format's default quality is no quality asked.
    expect(variantName({ w: 640, fit: 'cover' }, 'webp')).toBe('w640.webp');
    expect(variantName({ w: 640, q: 30 }, 'png')).toBe('w640.png');
    expect(variantName({ w: 640, q: 80 }, 'webp')).toBe('w640.webp');
    expect(variantName({ w: 640, q: 80 }, 'avif')).toBe('w640-q80.avif');
  });
});
