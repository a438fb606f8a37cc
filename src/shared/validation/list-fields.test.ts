import fc from 'fast-check';
import {
  canAddRow,
  isAcceptedUpload,
  isReferenceFull,
  moveEntry,
  referenceLabel,
  removeEntry,
} from './list-fields';

describe('moveEntry', () => {
  it('moves an entry up or down by one', () => {
    expect(moveEntry(['a', 'b', 'c'], 1, -1)).toEqual(['b', 'a', 'c']);
    expect(moveEntry(['a', 'b', 'c'], 1, 1)).toEqual(['a', 'c', 'b']);
  });

  it('leaves the list unchanged at either end or for a bad index', () => {
    expect(moveEntry(['a', 'b'], 0, -1)).toEqual(['a', 'b']);
    expect(moveEntry(['a', 'b'], 1, 1)).toEqual(['a', 'b']);
    expect(moveEntry(['a', 'b'], 5, -1)).toEqual(['a', 'b']);
  });

  it('keeps the same entries, and moving back undoes a move', () => {
    fc.assert(
      fc.property(fc.array(fc.integer(), { minLength: 2 }), fc.nat(), (list, at) => {
        const index = at % (list.length - 1);
        const moved = moveEntry(list, index, 1);
        expect([...moved].sort()).toEqual([...list].sort());
        expect(moveEntry(moved, index + 1, -1)).toEqual(list);
      }),
    );
  });

  it('removes an entry', () => {
    expect(removeEntry(['a', 'b', 'c'], 1)).toEqual(['a', 'c']);
  });
});

describe('canAddRow', () => {
  it('hides Add at the maximum row count', () => {
    expect(canAddRow({ maxRows: 2 }, [{}, {}])).toBe(false);
    expect(canAddRow({ maxRows: 2 }, [{}])).toBe(true);
    expect(canAddRow({ maxRows: 0 }, undefined)).toBe(false);
    expect(canAddRow({}, new Array(1000).fill({}))).toBe(true);
  });
});

describe('references', () => {
  it('a single reference is full after one selection; a list never is', () => {
    expect(isReferenceFull({ type: 'reference' }, { id: '1', schemaType: 'copy' })).toBe(true);
    expect(isReferenceFull({ type: 'reference' }, null)).toBe(false);
    expect(isReferenceFull({ type: 'reference-list' as 'reference' }, { id: '1', schemaType: 'copy' })).toBe(
      false,
    );
  });

  it("labels unnamed targets '-- UNNAMED ITEM --'", () => {
    expect(referenceLabel({ label: 'Cat' })).toBe('Cat');
    expect(referenceLabel({ label: '  ' })).toBe('-- UNNAMED ITEM --');
    expect(referenceLabel({})).toBe('-- UNNAMED ITEM --');
  });
});

describe('isAcceptedUpload', () => {
  it('accepts image/* files only by default', () => {
    expect(isAcceptedUpload('image/png')).toBe(true);
    expect(isAcceptedUpload('IMAGE/JPEG')).toBe(true);
    expect(isAcceptedUpload('application/pdf')).toBe(false);
    expect(isAcceptedUpload('image/')).toBe(false);
    expect(isAcceptedUpload('imagex/png')).toBe(false);
  });

  it('follows an explicit accept list', () => {
    expect(isAcceptedUpload('application/pdf', 'application/pdf, image/*')).toBe(true);
    expect(isAcceptedUpload('text/plain', 'application/pdf, image/*')).toBe(false);
  });
});
