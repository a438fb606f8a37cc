import { useState } from 'react';
import { MemoryRouter } from 'react-router';
import { EXPERIMENT_MESSAGES, NEW_EXPERIMENT } from '@shared/campaigns/experiment';
import { BUILT_IN_MODEL } from '@shared/model/registry';
import type { FieldDef } from '@shared/schemas/types';
import { click, waitFor } from '@web/test/render';
import { bodyText, button, changeValue, renderUi } from '../item-form/test-utils';
import type { FieldProps } from '../fields/types';
import { ExperimentField } from './experiment-field';

const field = BUILT_IN_MODEL.schema('campaign')!.fields.find(
  (entry) => entry.key === 'experiment',
) as FieldDef;

/** The input a visible label names. */
function labelled(text: string, root: ParentNode = document) {
  const label = Array.from(root.querySelectorAll('label')).find((each) => each.textContent?.trim() === text);
  if (!label) throw new Error(`No label "${text}"`);
  return document.getElementById(label.htmlFor) as HTMLInputElement;
}

async function renderExperiment(initial: unknown, readOnly = false) {
  const changes: unknown[] = [];
  function Harness() {
    const [value, setValue] = useState(initial);
    const props = {
      field,
      value,
      scope: { experiment: value },
      onChange: (next: unknown) => {
        changes.push(next);
        setValue(next);
      },
      onPatch: () => {},
      readOnly,
      errors: {},
      path: 'experiment',
      inputId: 'experiment-input',
    } as FieldProps;
    return <ExperimentField {...props} />;
  }
  await renderUi(
    <MemoryRouter>
      <Harness />
    </MemoryRouter>,
  );
  return changes;
}

const variant = (key: string) => document.querySelector(`[data-testid="variant-${key}"]`);

describe('experiment field', () => {
  it('switches an A/B test on with two variants, adds and removes one, and edits a variant', async () => {
    const changes = await renderExperiment(null);
    expect(variant('A')).toBeNull();
    await click(document.getElementById('experiment-input')!);
    expect(changes.at(-1)).toEqual(NEW_EXPERIMENT);
    await waitFor(() => expect(variant('B')).not.toBeNull());
    await click(button('Add variant'));
    await waitFor(() => expect(variant('C')).not.toBeNull());
    expect(document.querySelector('[aria-label="Remove variant C"]')).not.toBeNull();
    await click(document.querySelector('[aria-label="Remove variant C"]')!);
    await waitFor(() => expect(variant('C')).toBeNull());
    await changeValue(labelled('Subject', variant('B')!), 'Your autumn letter');
    expect(changes.at(-1)).toMatchObject({ variants: [{}, { subject: 'Your autumn letter' }] });
  });

  it('says what is wrong with the shares before the campaign is saved', async () => {
    await renderExperiment({ ...NEW_EXPERIMENT, testPercent: 90 });
    await changeValue(labelled('Holdout (%)'), '20');
    await waitFor(() => expect(bodyText()).toContain(EXPERIMENT_MESSAGES.shares));
    await changeValue(labelled('Holdout (%)'), '5');
    await waitFor(() => expect(bodyText()).not.toContain(EXPERIMENT_MESSAGES.shares));
  });

  it('reads the variants, the shares and the rule in view mode', async () => {
    await renderExperiment(
      {
        variants: [{ subject: 'One' }, { fromName: 'Ada at Acme' }],
        testPercent: 20,
        holdoutPercent: 10,
        waitHours: 4,
        winnerBy: 'conversion',
        conversionEvent: 'purchase',
        windowHours: 48,
      },
      true,
    );
    expect(bodyText()).toContain('2 variants on 20% of the audience, 10% held out');
    expect(bodyText()).toContain('A: subject “One”');
    expect(bodyText()).toContain('B: sender name Ada at Acme');
    expect(bodyText()).toContain(
      'Winner by conversion rate of purchase within 48 h, 4 h after the test send',
    );
  });
});
