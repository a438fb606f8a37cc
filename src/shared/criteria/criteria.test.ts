import { describe, expect, it } from 'vitest';
import type { CriteriaCatalog } from './catalog';
import { checkCriteria } from './check';
import { canAddGroup, newEventRule, newRootGroup, relabel, treeDepth } from './defaults';
import { profileMatches, type ProfileFacts } from './evaluate';
import { lookBackStart } from './time';
import type { CriteriaGroup } from './tree';

const catalog: CriteriaCatalog = {
  attributes: new Map([
    ['a-age', { key: 'age', type: 'number', label: 'Age', options: [] }],
    ['a-tier', { key: 'tier', type: 'categorical', label: 'Tier', options: ['gold', 'silver'] }],
    ['a-tags', { key: 'tags', type: 'array', label: 'Tags', options: ['x', 'y', 'z'] }],
    ['a-renew', { key: 'renews', type: 'date', label: 'Renews', options: [] }],
  ]),
  events: new Map([
    ['e-buy', { key: 'purchase', label: 'Purchase', properties: new Map([['amount', 'number' as const]]) }],
  ]),
  audiences: new Map([['aud-b', { label: 'B', criteria: { label: '1', predicate: 'and', children: [] } }]]),
};

const attr = (id: string, operator: string, value: unknown) => ({
  type: 'attribute',
  predicate: { attribute: { schemaType: 'customer-profile-attribute', id, label: id } },
  operator,
  value,
});
const group = (predicate: string, children: unknown[], label = '1') => ({ label, predicate, children });
const asOf = new Date('2026-06-15T12:00:00.000Z');
const facts = (attributes: Record<string, unknown>, events: ProfileFacts['events'] = []): ProfileFacts => ({
  attributes,
  events,
});
const matches = (tree: unknown, f: ProfileFacts) => {
  expect(checkCriteria(tree, catalog)).toBeNull();
  return profileMatches(tree as CriteriaGroup, catalog, f, asOf);
};

describe('criteria defaults', () => {
  it('follow spec §9', () => {
    expect(newRootGroup()).toEqual({ label: '1', predicate: 'and', children: [] });
    expect(newEventRule()).toMatchObject({
      lookBackUnit: 'minutes',
      lookBackValue: 15,
      aggregator: 'COUNT',
      aggregatorCondition: '>=',
      aggregatorValue: 1,
    });
  });
  it('count depth in groups and label by position', () => {
    const tree = relabel(
      group('and', [attr('a-age', '>', 1), group('or', [group('not', [])])]) as CriteriaGroup,
    );
    expect(treeDepth(tree)).toBe(3);
    expect((tree.children[1] as CriteriaGroup).label).toBe('1.2');
    expect(((tree.children[1] as CriteriaGroup).children[0] as CriteriaGroup).label).toBe('1.2.1');
    expect(canAddGroup('1.2.1')).toBe(true);
    expect(canAddGroup('1.2.1.3')).toBe(false);
  });
  it('look back fixed lengths, and calendar months', () => {
    expect(lookBackStart(asOf, 'minutes', 15)!.toISOString()).toBe('2026-06-15T11:45:00.000Z');
    expect(lookBackStart(new Date('2026-03-31T00:00:00.000Z'), 'months', 1)!.toISOString()).toBe(
      '2026-02-28T00:00:00.000Z',
    );
    expect(lookBackStart(asOf, 'anytime', 0)).toBeNull();
  });
});

describe('checkCriteria names the offending node', () => {
  it.each([
    [group('and', [attr('a-age', 'overlaps', ['1'])]), '1.1', 'does not fit'],
    [group('and', [attr('a-age', '==', 'ten')]), '1.1', 'needs a number value'],
    [group('and', [attr('a-tags', 'overlaps', 'x')]), '1.1', 'needs a list'],
    [group('and', [attr('a-renew', 'was in the last', -1)]), '1.1', 'whole number of days'],
    [group('and', [attr('nope', '==', 1)]), '1.1', 'does not exist'],
    [group('and', [{ type: 'attribute', predicate: {} }]), '1.1', 'Attribute not selected'],
    [group('and', [group('or', [{ ...newEventRule() }])]), '1.1.1', 'Event not selected'],
    [group('xor', []), '1', 'predicate'],
    [
      group('and', [group('and', [group('and', [group('and', [group('and', [])])])])]),
      '1.1.1.1.1',
      'at most 4',
    ],
    [
      group('and', [
        {
          ...newEventRule(),
          event: { schemaType: 'behavioral-event', id: 'e-buy' },
          aggregator: 'TOTAL',
          property: 'missing',
        },
      ]),
      '1.1',
      'TOTAL needs a number property',
    ],
  ])('%j', (tree, node, message) => {
    const problem = checkCriteria(tree, catalog);
    expect(problem?.node).toBe(node);
    expect(problem?.message).toContain(message);
  });

  it('refuses an audience that includes itself through a chain', () => {
    const withCycle: CriteriaCatalog = {
      ...catalog,
      audiences: new Map([
        ['aud-a', { label: 'A', criteria: group('and', []) }],
        [
          'aud-b',
          {
            label: 'B',
            criteria: group('and', [
              { type: 'audience', predicate: { remote: { schemaType: 'audience', id: 'aud-a' } } },
            ]),
          },
        ],
      ]),
    };
    const tree = group('and', [
      { type: 'audience', predicate: { remote: { schemaType: 'audience', id: 'aud-b' } } },
    ]);
    expect(checkCriteria(tree, withCycle, 'aud-a')).toEqual({
      node: '1.1',
      message: 'an audience cannot include itself (A → B → A)',
    });
    expect(checkCriteria(tree, withCycle, 'aud-c')).toBeNull();
  });

  it('accepts a depth-4 group holding leaves', () => {
    const tree = group('and', [group('or', [group('not', [group('and', [attr('a-age', '>=', 3)])])])]);
    expect(checkCriteria(tree, catalog)).toBeNull();
  });
});

describe('profileMatches (the meaning)', () => {
  it('a profile without a value matches no attribute leaf, so it matches not of one', () => {
    expect(matches(group('and', [attr('a-age', '!=', 3)]), facts({}))).toBe(false);
    expect(matches(group('not', [attr('a-age', '==', 3)]), facts({}))).toBe(true);
    expect(matches(group('or', []), facts({}))).toBe(true);
  });
  it('arrays: subset, overlaps, disjoint', () => {
    const f = facts({ tags: ['x', 'y'] });
    expect(matches(group('and', [attr('a-tags', 'is subset of', ['x', 'y', 'z'])]), f)).toBe(true);
    expect(matches(group('and', [attr('a-tags', 'is subset of', ['x'])]), f)).toBe(false);
    expect(matches(group('and', [attr('a-tags', 'overlaps', ['y'])]), f)).toBe(true);
    expect(matches(group('and', [attr('a-tags', 'disjoint', ['y'])]), f)).toBe(false);
  });
  it('dates relative to asOf', () => {
    const f = facts({ renews: '2026-06-20T12:00:00.000Z' });
    expect(matches(group('and', [attr('a-renew', 'is in the next', 5)]), f)).toBe(false);
    expect(matches(group('and', [attr('a-renew', 'is in the next', 6)]), f)).toBe(true);
    expect(matches(group('and', [attr('a-renew', 'is not for another', 5)]), f)).toBe(true);
    expect(matches(group('and', [attr('a-renew', 'was in the last', 5)]), f)).toBe(false);
  });
  it('events: window, where, COUNT and TOTAL; no events is COUNT 0', () => {
    const rule = (over: object) => ({
      ...newEventRule(),
      event: { schemaType: 'behavioral-event', id: 'e-buy' },
      lookBackUnit: 'days',
      lookBackValue: 7,
      ...over,
    });
    const events = [
      { event: 'purchase', at: new Date('2026-06-14T00:00:00.000Z'), properties: { amount: 30 } },
      { event: 'purchase', at: new Date('2026-06-13T00:00:00.000Z'), properties: { amount: 10 } },
      { event: 'purchase', at: new Date('2026-05-01T00:00:00.000Z'), properties: { amount: 500 } },
    ];
    expect(matches(group('and', [rule({ aggregatorValue: 2 })]), facts({}, events))).toBe(true);
    expect(matches(group('and', [rule({ aggregatorValue: 3 })]), facts({}, events))).toBe(false);
    expect(
      matches(
        group('and', [
          rule({ whereProperty: 'amount', whereOperator: '>=', whereValue: 20, aggregatorCondition: '==' }),
        ]),
        facts({}, events),
      ),
    ).toBe(true);
    expect(
      matches(
        group('and', [
          rule({ aggregator: 'TOTAL', property: 'amount', aggregatorValue: 40, aggregatorCondition: '==' }),
        ]),
        facts({}, events),
      ),
    ).toBe(true);
    expect(matches(group('and', [rule({ aggregatorCondition: '<=', aggregatorValue: 2 })]), facts({}))).toBe(
      true,
    );
  });
});
