import { useState } from 'react';
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import type { CriteriaDefinitions } from '@shared/api/customers';
import type { CriteriaGroup } from '@shared/criteria/tree';
import { findByText } from '@web/test/render';
import { bodyText, button, byLabel, pickOption, queryButton, renderUi } from '../item-form/test-utils';
import { GroupNode } from './group-node';

const defs: CriteriaDefinitions = {
  attributes: [
    { id: 'a-tier', label: 'Tier', key: 'tier', type: 'categorical', options: ['gold', 'silver'] },
    { id: 'a-age', label: 'Age', key: 'age', type: 'number', options: [] },
  ],
  events: [
    { id: 'e-buy', label: 'Purchase', key: 'purchase', properties: [{ name: 'amount', type: 'number' }] },
  ],
  audiences: [{ id: 'aud-1', label: 'Buyers' }],
};

let latest: CriteriaGroup;
function Host({ initial }: { initial: CriteriaGroup }) {
  const [root, setRoot] = useState(initial);
  latest = root;
  return (
    <GroupNode
      root={root}
      group={root}
      path={[]}
      defs={defs}
      onChange={(next) => {
        latest = next;
        setRoot(next);
      }}
      readOnly={false}
    />
  );
}

const empty = (): CriteriaGroup => ({ label: '1', predicate: 'and', children: [] });

describe('the criteria rule builder', () => {
  it('adds rules with the spec defaults and placeholders, and groups labelled by position', async () => {
    await renderUi(<Host initial={empty()} />);
    await act(async () => button('Attribute rule').click());
    await act(async () => button('Behavior rule').click());
    await act(async () => button('Audience rule').click());
    await act(async () => button('Group').click());
    expect(byLabel('Attribute of rule 1.1').getAttribute('placeholder')).toBe('Attribute not selected');
    expect(byLabel('Event of rule 1.2').getAttribute('placeholder')).toBe('Event not selected');
    expect(byLabel('Audience of rule 1.3').getAttribute('placeholder')).toBe('Audience not selected');
    expect(latest.children[1]).toEqual({
      type: 'event',
      lookBackUnit: 'minutes',
      lookBackValue: 15,
      aggregator: 'COUNT',
      aggregatorCondition: '>=',
      aggregatorValue: 1,
    });
    expect(latest.children[3]).toEqual({ label: '1.4', predicate: 'and', children: [] });

    await pickOption(byLabel('Attribute of rule 1.1'), 'Age');
    expect(latest.children[0]).toMatchObject({ operator: '==', value: 0 });
    await pickOption(byLabel('Event of rule 1.2'), 'Purchase');
    await act(async () => button('Where').click());
    expect(latest.children[1]).toMatchObject({
      whereProperty: 'amount',
      whereOperator: '>=',
      whereValue: 20,
    });

    // Removing a sub-tree relabels the groups after it.
    await act(async () => byLabel<HTMLButtonElement>('Remove rule 1.3').click());
    expect(latest.children[2]).toEqual({ label: '1.3', predicate: 'and', children: [] });
  }, 20_000);

  it('offers no group inside a group at depth 4', async () => {
    const deep: CriteriaGroup = {
      label: '1',
      predicate: 'and',
      children: [
        {
          label: '1.1',
          predicate: 'or',
          children: [
            {
              label: '1.1.1',
              predicate: 'not',
              children: [{ label: '1.1.1.1', predicate: 'and', children: [] }],
            },
          ],
        },
      ],
    };
    await renderUi(<Host initial={deep} />);
    const groupButtons = () =>
      Array.from(document.querySelectorAll('button')).filter((b) => b.textContent?.trim() === 'Group');
    expect(groupButtons()).toHaveLength(3);
    expect(document.querySelector('[data-group="1.1.1.1"]')!.textContent).not.toContain('Group');
  });

  it('shows an option that no longer exists as an old value, and a missing audience', async () => {
    await renderUi(
      <Host
        initial={{
          label: '1',
          predicate: 'and',
          children: [
            {
              type: 'attribute',
              predicate: {
                attribute: { schemaType: 'customer-profile-attribute', id: 'a-tier', label: 'Tier' },
              },
              operator: '==',
              value: 'platinum',
            },
            {
              type: 'audience',
              predicate: { remote: { schemaType: 'audience', id: 'gone', label: 'Gone' } },
            },
          ],
        }}
      />,
    );
    expect(byLabel('Value of rule 1.1').value).toBe('--Old Value--platinum');
    expect(byLabel('Audience of rule 1.2').getAttribute('placeholder')).toBe('-- AUDIENCE MISSING --');
  });

  it('clears every rule only after the confirm dialog', async () => {
    await renderUi(<Host initial={empty()} />);
    await act(async () => button('Attribute rule').click());
    await act(async () => button('Clear').click());
    await findByText('Clear all rules?');
    expect(latest.children).toHaveLength(1);
    const confirm = Array.from(document.querySelectorAll('button'))
      .filter((b) => b.textContent?.trim() === 'Clear')
      .pop()!;
    await act(async () => confirm.click());
    expect(latest).toEqual(empty());
    expect(queryButton('Clear')?.disabled).toBe(true);
    expect(bodyText()).not.toContain('Attribute not selected');
  });
});
