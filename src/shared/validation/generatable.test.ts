import fc from 'fast-check';
import { generatableValue, isGeneratedField } from './generatable';

describe('generatable text', () => {
  it('is generated and read-only only above a length of 10', () => {
    expect(isGeneratedField({ generateLength: 10 })).toBe(false);
    expect(isGeneratedField({ generateLength: 11 })).toBe(true);
  });

  it('fills an empty generated field with a random alphanumeric string of that length', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 11, max: 64 }),
        fc.constantFrom(undefined, null, ''),
        (length, stored) => {
          expect(generatableValue({ generateLength: length }, stored)).toMatch(
            new RegExp(`^[A-Za-z0-9]{${length}}$`),
          );
        },
      ),
    );
  });

  it('keeps a stored value, and leaves short ones empty for editing', () => {
    expect(generatableValue({ generateLength: 20 }, 'kept')).toBe('kept');
    expect(generatableValue({ generateLength: 10 }, undefined)).toBe('');
    expect(generatableValue({ generateLength: 0 }, 'typed')).toBe('typed');
  });
});
