import { event } from '../schemas/marketing';
import type { BlockType, SchemaType } from '../schemas/types';
import {
  addressLine,
  itemAddress,
  NEAR_MESSAGES,
  parseNear,
  withAddressGeohashes,
  withGeohash,
} from './address';

describe('withGeohash', () => {
  it('computes the geohash from the point and drops a sent one', () => {
    const address = withGeohash({
      city: 'Aalborg',
      latitude: 57.64911,
      longitude: 10.40744,
      geohash: { p_1: 'z' },
    });
    expect((address.geohash as Record<string, string>).p_11).toBe('u4pruydqqvj');
    expect(address.geohashes).toHaveLength(12);
    expect(withGeohash({ city: 'x', geohash: { p_1: 'z' }, geohashes: ['z'] })).toEqual({ city: 'x' });
  });
});

describe('withAddressGeohashes', () => {
  const withTable: SchemaType = {
    ...event,
    fields: [
      ...event.fields,
      {
        key: 'stops',
        label: 'Stops',
        type: 'table',
        columns: [{ key: 'where', label: 'Where', type: 'address' }],
      },
    ],
  };

  it('fills top-level addresses and addresses in table rows, leaving other data as it is', () => {
    const data = {
      name: 'Tour',
      location: { latitude: 42.6, longitude: -5.6 },
      stops: [{ where: { latitude: 52.205, longitude: 0.119 } }, { where: null }],
    };
    const out = withAddressGeohashes(withTable, data);
    expect((out.location as { geohash: Record<string, string> }).geohash.p_5).toBe('ezs42');
    const stops = out.stops as { where: { geohash: Record<string, string> } | null }[];
    expect(stops[0].where!.geohash.p_7).toBe('u120fxw');
    expect(stops[1].where).toBeNull();
    expect(out.name).toBe('Tour');
    expect(data.location).toEqual({ latitude: 42.6, longitude: -5.6 });
  });

  it('fills addresses inside blocks, nested blocks too', () => {
    const place: BlockType = {
      name: 'place',
      title: 'Place',
      fields: [
        { key: 'where', label: 'Where', type: 'address' },
        { key: 'more', label: 'More', type: 'blocks', blockTypes: ['place'] },
      ],
    };
    const schema: SchemaType = {
      ...event,
      fields: [{ key: 'places', label: 'Places', type: 'blocks', blockTypes: ['place'] }],
      blockTypes: { place },
    };
    const point = { latitude: 52.205, longitude: 0.119 };
    const data = {
      places: [
        { _type: 'place', _key: 'a', where: point, more: [{ _type: 'place', _key: 'b', where: point }] },
      ],
    };
    const [outer] = withAddressGeohashes(schema, data).places as {
      where: { geohash: Record<string, string> };
      more: { where: { geohash: Record<string, string> } }[];
    }[];
    expect(outer.where.geohash.p_7).toBe('u120fxw');
    expect(outer.more[0].where.geohash.p_7).toBe('u120fxw');
    expect(data.places[0].where).toEqual(point);
    const without = { places: [{ _type: 'place', _key: 'a' }] };
    expect(withAddressGeohashes(schema, without)).toBe(without);
  });

  it('answers the same object when there is no address', () => {
    const data = { name: 'No place' };
    expect(withAddressGeohashes(event, data)).toBe(data);
  });
});

describe('parseNear', () => {
  it('reads latitude,longitude', () => {
    expect(parseNear('48.8566,2.3522')).toEqual({ latitude: 48.8566, longitude: 2.3522 });
    expect(parseNear(' -33.87 , 151.21 ')).toEqual({ latitude: -33.87, longitude: 151.21 });
    expect(parseNear('1e-7,-180')).toEqual({ latitude: 1e-7, longitude: -180 });
  });

  it('names what is wrong', () => {
    expect(parseNear('paris')).toEqual({ error: NEAR_MESSAGES.near });
    expect(parseNear('90.1,0')).toEqual({ error: NEAR_MESSAGES.latitude });
    expect(parseNear('0,180.5')).toEqual({ error: NEAR_MESSAGES.longitude });
  });
});

describe('addressLine and itemAddress', () => {
  it('puts the parts on one line, else the raw address', () => {
    expect(
      addressLine({
        streetNumber: '2',
        streetAddress: 'Macquarie Street',
        unit: 'Forecourt',
        city: 'Sydney',
        state: 'NSW',
        postal_code: '2000',
        country: 'AU',
      }),
    ).toBe('2 Macquarie Street, Forecourt, Sydney, NSW 2000, AU');
    expect(addressLine({ rawAddress: 'Somewhere nice' })).toBe('Somewhere nice');
    expect(addressLine(null)).toBe('');
  });

  it("finds the item's address", () => {
    expect(itemAddress(event, { location: { city: 'Paris' } })).toEqual({ city: 'Paris' });
    expect(itemAddress(event, { location: null })).toBeNull();
  });
});
