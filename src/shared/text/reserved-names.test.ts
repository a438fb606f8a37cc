import fc from 'fast-check';
import { isReservedName, ownValue } from './reserved-names';

describe('reserved names', () => {
  it('names the built-ins of plain objects and nothing else a workspace would use', () => {
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']) {
      expect(isReservedName(name)).toBe(true);
    }
    for (const name of ['admin', 'editor', 'live', 'loyalty-tier', 'proto']) {
      expect(isReservedName(name)).toBe(false);
    }
  });

  it('finds own values only', () => {
    const roles: Record<string, number> = { admin: 1 };
    expect(ownValue(roles, 'admin')).toBe(1);
    fc.assert(
      fc.property(fc.constantFrom('constructor', 'toString', '__proto__', 'valueOf'), (name) => {
        expect(ownValue(roles, name)).toBeUndefined();
      }),
    );
  });
});
