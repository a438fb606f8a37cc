import type { PreviewAnswer } from '@shared/api/customer-imports';
import { renderUi } from '@web/components/item-form/test-utils';
import { MappingStep } from './import-dialog';

const column = (name: string, own = false) => ({
  column: name,
  own,
  match: own ? ('own' as const) : ('new' as const),
  key: own ? 'emailConsent' : name,
  keyChange: own ? 'Read as the email consent of each row' : null,
  label: name,
  type: 'string' as const,
  inferred: 'string' as const,
  filled: 1,
  samples: ['x'],
  options: [],
});

const preview = (columns: PreviewAnswer['columns']): PreviewAnswer => ({
  format: 'csv',
  rowsRead: 2,
  columns,
  rows: [],
  events: [],
  errors: [],
  mapping: { columns: {}, events: {} },
});

const renderStep = (kind: 'profiles' | 'customer-events', answer: PreviewAnswer) =>
  renderUi(
    <MappingStep
      kind={kind}
      preview={answer}
      choices={Object.fromEntries(
        answer.columns.map((c) => [c.column, { action: 'map', key: c.key, type: 'string', label: c.label }]),
      )}
      setChoices={() => {}}
      createEvents={{}}
      setCreateEvents={() => {}}
      existingKeys={new Set()}
    />,
  );

describe('import preview', () => {
  it('speaks of event properties, not attributes, in an event import', async () => {
    // The events import screen said each column goes to an attribute.
    await renderStep('customer-events', preview([column('page_url')]));
    const text = document.querySelector('[data-testid="import-preview"]')!.textContent!;
    expect(text).toContain('Each column goes to the event property with its key');
    expect(text).not.toMatch(/attribute/i);
  });

  it('speaks of attributes in a profile import, and says a consent column is read as email consent', async () => {
    await renderStep('profiles', preview([column('Email Consent', true), column('plan')]));
    const text = document.querySelector('[data-testid="import-preview"]')!.textContent!;
    expect(text).toContain('Each column goes to the attribute with its key');
    expect(document.querySelector('[data-testid="own-column"]')!.textContent).toBe(
      'Email Consent is read as the email consent of each row.',
    );
  });

  it('tells of a renamed column as information, not as a warning', async () => {
    // A column whose key differs from its name was flagged in orange, as if something were wrong.
    const renamed = {
      ...column('Plan Name'),
      key: 'plan-name',
      keyChange: 'Becomes "plan-name": the plan name of each profile',
    };
    await renderStep('profiles', preview([renamed]));
    const note = document.querySelector<HTMLElement>('[data-column="Plan Name"] [role="note"]')!;
    expect(note.textContent).toBe('Becomes "plan-name": the plan name of each profile');
    expect(note.innerHTML).not.toMatch(/orange|yellow|red/);
  });
});
