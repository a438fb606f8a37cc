import { act, useState } from 'react';
import type { Role } from '@shared/permissions/permissions';
import { bodyText, pickOption, renderUi } from '@web/components/item-form/test-utils';
import { cleanupRendered } from '@web/test/render';
import { RoleCard } from './role-card';

const editor: Role = { name: 'French editor', canEdit: ['blog-post'], canPublish: [], mustApprove: [] };

/** The input a visible label names (Mantine's MultiSelect is labelled by its <label for>). */
function inputLabelled(text: string) {
  const label = Array.from(document.querySelectorAll('label')).find((l) => l.textContent?.trim() === text);
  return label ? (document.getElementById(label.htmlFor) as HTMLInputElement | null) : null;
}

/** The role card with its role kept in state, as the roles screen keeps its draft. */
async function renderCard(role: Role, workspaceLocales?: string[]) {
  const changes: Role[] = [];
  function Harness() {
    const [draft, setDraft] = useState(role);
    return (
      <RoleCard
        id="french"
        role={draft}
        schemaOptions={[{ value: 'blog-post', label: 'Blog Posts' }]}
        workspaceLocales={workspaceLocales}
        onChange={(patch) =>
          setDraft((current) => {
            const next = { ...current, ...patch };
            changes.push(next);
            return next;
          })
        }
        onDelete={() => {}}
      />
    );
  }
  await renderUi(<Harness />);
  return changes;
}

afterEach(cleanupRendered);

describe('role card locales', () => {
  it('limits a role to locales chosen among the workspace’s, showing the limit', async () => {
    const changes = await renderCard(editor, ['en-US', 'fr-FR', 'fr-CA']);
    const locales = inputLabelled('Locales')!;
    expect(locales.getAttribute('placeholder')).toBe('All locales');
    expect(bodyText()).not.toMatch(/fr-FR.* only/);
    await pickOption(locales, 'fr-FR · French (France)');
    expect(changes.at(-1)?.locales).toEqual(['fr-FR']);
    expect(bodyText()).toContain('fr-FR only');
    await pickOption(locales, 'fr-CA · Canadian French');
    expect(changes.at(-1)?.locales).toEqual(['fr-FR', 'fr-CA']);
    expect(bodyText()).toContain('fr-FR, fr-CA only');
  });

  it('clearing the locales gives every locale back, with no empty list', async () => {
    const changes = await renderCard({ ...editor, locales: ['fr-FR'] }, ['en-US', 'fr-FR']);
    const clear = document.querySelector<HTMLButtonElement>(
      'button[aria-label="All locales: clear the limit"]',
    )!;
    await act(async () => clear.click());
    expect(changes).toHaveLength(1);
    expect(changes[0].locales).toBeUndefined();
    expect(bodyText()).not.toContain('fr-FR only');
  });

  it('offers a locale since removed that the role still holds, so it can be taken off', async () => {
    await renderCard({ ...editor, locales: ['fr-FR', 'fr-CA'] }, ['en-US', 'fr-FR']);
    expect(bodyText()).toContain('fr-FR, fr-CA only');
    expect(bodyText()).toContain('fr-CA · removed from the workspace');
  });

  it('shows no locale choice in a workspace without locales', async () => {
    await renderCard(editor);
    expect(inputLabelled('Locales')).toBeNull();
    expect(inputLabelled('Can edit')).not.toBeNull();
  });
});

describe('role card customer data', () => {
  const box = (label: string) => inputLabelled(label)!;
  const READ = 'Read profiles, their events and the suppression list';

  it('grants nothing by default and reading with exporting or erasing, which hold it fixed', async () => {
    const changes = await renderCard(editor);
    expect([READ, 'Export audience members as CSV', 'Erase profiles'].map((l) => box(l).checked)).toEqual([
      false,
      false,
      false,
    ]);
    await act(async () => box('Erase profiles').click());
    expect(changes.at(-1)?.customerData).toEqual(['read', 'erase']);
    expect(box(READ).checked).toBe(true);
    expect(box(READ).disabled).toBe(true);
    await act(async () => box('Erase profiles').click());
    expect(changes.at(-1)?.customerData).toEqual(['read']);
    expect(box(READ).disabled).toBe(false);
    await act(async () => box(READ).click());
    expect(changes.at(-1)?.customerData).toEqual([]);
  });
});
