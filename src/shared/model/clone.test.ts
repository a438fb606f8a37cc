import { describe, expect, it } from 'vitest';
import { cloneJson } from './clone';

describe('cloneJson', () => {
  it('copies nested objects and arrays, sharing nothing with the original', () => {
    const data = {
      name: 'Post',
      sections: [{ _key: 'a', items: [1, 'two', null, true] }],
      _locales: { fr: { name: 'Billet' } },
    };
    const copy = cloneJson(data);
    expect(copy).toEqual(data);
    copy.sections[0].items.push(5);
    copy._locales.fr.name = 'changed';
    expect(data.sections[0].items).toEqual([1, 'two', null, true]);
    expect(data._locales.fr.name).toBe('Billet');
  });

  it('keeps a __proto__ key as an own property, never as the prototype', () => {
    const data = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    const copy = cloneJson(data);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect((copy as { polluted?: boolean }).polluted).toBeUndefined();
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(data));
  });
});
