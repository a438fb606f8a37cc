import { LOCALES_KEY } from '@shared/locales/locales';
import type { FieldDef } from '@shared/schemas/types';
import { withoutRemovedFields } from './prepare-item-data';

const field = (key: string, type: FieldDef['type'] = 'text') => ({ key, label: key, type }) as FieldDef;

describe('withoutRemovedFields', () => {
  const before = { fields: [field('name'), field('startsAt', 'datetime'), field('notes')] };

  it("drops the values of fields the schema no longer has, with their zones and other locales' values", () => {
    const data = {
      name: 'Launch',
      startsAt: '2026-01-01T10:00:00.000Z',
      startsAt_tz: 'Europe/Paris',
      notes: 'Bring cake',
      [LOCALES_KEY]: { 'fr-FR': { name: 'Lancement', notes: 'Apporter un gâteau' } },
    };
    const after = { fields: [field('name'), field('venue')] };
    expect(withoutRemovedFields(before, after, data)).toEqual({
      name: 'Launch',
      [LOCALES_KEY]: { 'fr-FR': { name: 'Lancement' } },
    });
  });

  it('answers the same data when no field went', () => {
    const data = { name: 'Launch', notes: 'Bring cake' };
    expect(withoutRemovedFields(before, { fields: [...before.fields, field('venue')] }, data)).toBe(data);
  });
});
