import { describe, expect, it } from 'vitest';
import { CENTRE, focusFromClick, focusOf, nudgeFocus, objectPosition } from './focal-point';

const rect = { left: 100, top: 50, width: 400, height: 200 };

describe('focusFromClick', () => {
  it('is the click as fractions of the drawn image', () => {
    expect(focusFromClick(100, 50, rect)).toEqual({ focusX: 0, focusY: 0 });
    expect(focusFromClick(300, 150, rect)).toEqual({ focusX: 0.5, focusY: 0.5 });
    expect(focusFromClick(500, 250, rect)).toEqual({ focusX: 1, focusY: 1 });
    expect(focusFromClick(200, 100, rect)).toEqual({ focusX: 0.25, focusY: 0.25 });
  });

  it('stays between 0 and 1 for clicks on the border or outside', () => {
    expect(focusFromClick(90, 300, rect)).toEqual({ focusX: 0, focusY: 1 });
  });

  it('rounds to thousandths', () => {
    expect(focusFromClick(100 + 400 / 3, 50, rect).focusX).toBe(0.333);
  });

  it('is the centre for an image not drawn yet', () => {
    expect(focusFromClick(10, 10, { left: 0, top: 0, width: 0, height: 0 })).toEqual(CENTRE);
  });
});

describe('focusOf', () => {
  it('reads a stored point and mends missing or invalid parts to the centre', () => {
    expect(focusOf({ focusX: 0.2, focusY: 0.9 })).toEqual({ focusX: 0.2, focusY: 0.9 });
    expect(focusOf({ focusX: 2, focusY: 'x' })).toEqual(CENTRE);
    expect(focusOf(null)).toEqual(CENTRE);
  });
});

describe('nudgeFocus and objectPosition', () => {
  it('moves 5 % a key press and stops at the edges', () => {
    expect(nudgeFocus({ focusX: 0.5, focusY: 0.5 }, 'ArrowRight')).toEqual({ focusX: 0.55, focusY: 0.5 });
    expect(nudgeFocus({ focusX: 0.02, focusY: 0.5 }, 'ArrowLeft')).toEqual({ focusX: 0, focusY: 0.5 });
    expect(nudgeFocus({ focusX: 0.5, focusY: 0.98 }, 'ArrowDown')).toEqual({ focusX: 0.5, focusY: 1 });
    expect(nudgeFocus(CENTRE, 'Enter')).toBeNull();
  });

  it('keeps the point in view as CSS object-position', () => {
    expect(objectPosition({ focusX: 0.25, focusY: 1 })).toBe('25% 100%');
  });
});
