import { landingPage, landingPageData, sectionsField } from '@shared/schemas/blocks-test-data';
import type { FieldDef, SchemaType } from '@shared/schemas/types';
import { click, waitFor } from '@web/test/render';
import { bodyText, button, changeValue, queryButton, renderUi } from '../item-form/test-utils';
import { ItemForm } from '../item-form/item-form';
import { QuickViewLevelProvider } from '../quick-view/quick-view-level';
import { renderField } from './field-test-harness';
import type { ItemData } from './types';

const environment = { schema: landingPage };
/** The landing page whose hero holds only a generated reference. */
const generatedHero: SchemaType = {
  ...landingPage,
  blockTypes: {
    ...landingPage.blockTypes,
    hero: {
      ...landingPage.blockTypes!.hero,
      fields: [{ key: 'ref', label: 'Ref', type: 'generatable', generateLength: 16 }],
    },
  },
};
type Block = Record<string, unknown>;

const card = (name: string) => {
  const found = document.querySelector<HTMLElement>(`[role="group"][aria-label="${name}"]`);
  if (!found) throw new Error(`No block "${name}"`);
  return found;
};
const cardNames = (root: ParentNode = document) =>
  Array.from(root.querySelectorAll<HTMLElement>(':scope [data-blocks="sections"] > [data-block]')).map(
    (element) => element.getAttribute('aria-label'),
  );
/** The input a block's field label points at. */
function inputIn<T extends HTMLElement = HTMLInputElement>(block: HTMLElement, label: string): T {
  const labelElement = Array.from(block.querySelectorAll('label')).find(
    (candidate) => candidate.textContent?.replace('*', '').trim() === label,
  );
  const input = labelElement && document.getElementById(labelElement.htmlFor);
  if (!input) throw new Error(`No field "${label}" in ${block.getAttribute('aria-label')}`);
  return input as T;
}
const labelled = (label: string, root: ParentNode = document) =>
  root.querySelector<HTMLButtonElement>(`[aria-label="${label}"]`)!;
const menuItems = () =>
  Array.from(document.querySelectorAll<HTMLElement>('[role="menuitem"]')).map((item) => item.textContent);
/** Opens Add block and waits for its menu of block types. */
async function openAddMenu() {
  await click(button('Add block'));
  return waitFor(() => {
    const items = Array.from(document.querySelectorAll<HTMLElement>('[role="menuitem"]'));
    if (items.length === 0) throw new Error('menu not open');
    return items;
  });
}
async function addBlock(title: string) {
  const item = (await openAddMenu()).find((candidate) => candidate.textContent === title);
  if (!item) throw new Error(`No block type "${title}" offered`);
  await click(item);
}
const sections = (harness: { scope: () => ItemData }) => harness.scope().sections as Block[];

describe('blocks field', () => {
  it('shows each block as a card with its type title and its labelled fields, nested blocks too', async () => {
    await renderField(sectionsField, landingPageData(), { environment });
    expect(cardNames()).toEqual(['Hero 1', 'Feature grid 2', 'Call to action 3']);
    expect(inputIn(card('Hero 1'), 'Title').value).toBe('Hello');
    expect(card('Hero 1').textContent).toContain('Hero');
    const grid = card('Feature grid 2');
    expect(inputIn(grid, 'Heading').value).toBe('Why');
    expect(inputIn(card('Feature 1'), 'Name').value).toBe('Fast');
    expect(inputIn(card('Feature 2'), 'Name').value).toBe('Kind');
    expect(grid.contains(card('Feature 2'))).toBe(true);
  });

  it('edits a field of a block and of a nested block in place', async () => {
    const harness = await renderField(sectionsField, landingPageData(), { environment });
    await changeValue(inputIn(card('Hero 1'), 'Title'), 'Welcome');
    expect(sections(harness)[0]).toMatchObject({ _type: 'hero', _key: 'h1', title: 'Welcome' });
    await changeValue(inputIn(card('Feature 2'), 'Name'), 'Kinder');
    expect((sections(harness)[1].features as Block[])[1]).toMatchObject({ _key: 'f2', name: 'Kinder' });
    expect(sections(harness)[2]).toEqual(landingPageData().sections[2]);
  });

  it('adds a block of a type chosen from the menu, with a fresh key, and focuses it', async () => {
    const harness = await renderField(sectionsField, {}, { environment });
    expect(bodyText()).toContain('No blocks yet');
    const offered = await openAddMenu();
    expect(menuItems()).toEqual(['Hero', 'Feature grid', 'Call to action']);
    // Buttons: reached with the arrow keys, chosen with Enter or Space.
    expect(offered.map((item) => item.tagName)).toEqual(['BUTTON', 'BUTTON', 'BUTTON']);
    await addBlock('Call to action');
    await addBlock('Hero');
    const [first, second] = sections(harness);
    expect(first).toEqual({ _type: 'call-to-action', _key: expect.stringMatching(/^[A-Za-z0-9]{12}$/) });
    expect(second).toEqual({ _type: 'hero', _key: expect.stringMatching(/^[A-Za-z0-9]{12}$/) });
    expect(second._key).not.toBe(first._key);
    expect(cardNames()).toEqual(['Call to action 1', 'Hero 2']);
    expect(document.activeElement).toBe(card('Hero 2'));
  });

  it('moves blocks up and down and removes them, keeping focus on the block moved', async () => {
    const harness = await renderField(sectionsField, landingPageData(), { environment });
    expect(labelled('Move Hero 1 up').disabled).toBe(true);
    expect(labelled('Move Call to action 3 down').disabled).toBe(true);
    await click(labelled('Move Hero 1 down'));
    expect(sections(harness).map((block) => block._key)).toEqual(['g1', 'h1', 'c1']);
    expect(document.activeElement).toBe(labelled('Move Hero 2 down'));
    await click(labelled('Move Hero 2 down'));
    expect(sections(harness).map((block) => block._key)).toEqual(['g1', 'c1', 'h1']);
    // At the end, focus goes to the other move button.
    expect(document.activeElement).toBe(labelled('Move Hero 3 up'));
    await click(labelled('Move Call to action 2 up'));
    expect(sections(harness).map((block) => block._key)).toEqual(['c1', 'g1', 'h1']);
    await click(labelled('Remove Feature grid 2'));
    expect(sections(harness).map((block) => block._key)).toEqual(['c1', 'h1']);
    expect(document.activeElement).toBe(card('Hero 2'));
    await click(labelled('Remove Hero 2'));
    await click(labelled('Remove Call to action 1'));
    expect(harness.scope().sections).toBeNull();
    expect(document.activeElement).toBe(button('Add block'));
  });

  it('moves and removes nested blocks inside their own list', async () => {
    const harness = await renderField(sectionsField, landingPageData(), { environment });
    await click(labelled('Move Feature 1 down'));
    expect((sections(harness)[1].features as Block[]).map((block) => block._key)).toEqual(['f2', 'f1']);
    await click(labelled('Remove Feature 1'));
    expect((sections(harness)[1].features as Block[]).map((block) => block._key)).toEqual(['f1']);
    expect(sections(harness).map((block) => block._key)).toEqual(['h1', 'g1', 'c1']);
  });

  it('shows errors at their block paths, and the fields a display condition on the block shows', async () => {
    const data = {
      sections: [
        { _type: 'hero', _key: 'h1', hasButton: false },
        { _type: 'hero', _key: 'h2', hasButton: true },
        { _type: 'feature-grid', _key: 'g', features: [{ _type: 'feature', _key: 'f' }] },
      ],
    };
    await renderField(sectionsField, data, {
      environment,
      errors: {
        'sections.0.title': 'Title is required',
        'sections.2.features.0.name': 'Name is required',
        'sections.1': 'Something about the whole block',
      },
    });
    expect(card('Hero 1').textContent).toContain('Title is required');
    expect(card('Feature 1').textContent).toContain('Name is required');
    expect(card('Hero 2').textContent).not.toContain('Title is required');
    expect(card('Hero 2').textContent).toContain('Something about the whole block');
    expect(() => inputIn(card('Hero 1'), 'Button text')).toThrow();
    expect(inputIn(card('Hero 2'), 'Button text')).toBeTruthy();
  });

  it('hides Add block once the field holds its maximum, and counts the blocks', async () => {
    const field: FieldDef = { ...sectionsField, maxBlocks: 2 };
    await renderField(field, { sections: [{ _type: 'hero', _key: 'a' }] }, { environment });
    expect(bodyText()).toContain('1 of 2 blocks');
    await addBlock('Hero');
    expect(bodyText()).toContain('2 of 2 blocks');
    expect(queryButton('Add block')).toBeNull();
  });

  it('keeps a block of a type the model no longer has, and lets it be removed', async () => {
    const harness = await renderField(
      sectionsField,
      { sections: [{ _type: 'gone', _key: 'x', a: 1 }] },
      { environment },
    );
    expect(card('gone 1').textContent).toContain('The content model has no block type “gone”');
    await click(labelled('Remove gone 1'));
    expect(harness.scope().sections).toBeNull();
  });

  it('fills the generated fields of a new block', async () => {
    const harness = await renderField(sectionsField, {}, { environment: { schema: generatedHero } });
    await addBlock('Hero');
    expect(sections(harness)[0].ref).toMatch(/^[A-Za-z0-9]{16}$/);
  });
});

describe('blocks field, read-only', () => {
  it('shows the blocks and their values without editing controls', async () => {
    await renderField(sectionsField, landingPageData(), { environment, readOnly: true });
    expect(cardNames()).toEqual(['Hero 1', 'Feature grid 2', 'Call to action 3']);
    expect(card('Hero 1').textContent).toContain('Hello');
    expect(document.querySelector('input')).toBeNull();
    expect(queryButton('Add block')).toBeNull();
    expect(document.querySelector('[aria-label^="Move "]')).toBeNull();
  });

  it('sums the blocks up in little room, showing them on demand', async () => {
    await renderField(sectionsField, landingPageData(), {
      environment: { ...environment, compactDisplay: true },
      readOnly: true,
    });
    expect(bodyText()).toContain('3 blocks: Hero, Feature grid, Call to action');
    expect(cardNames()).toEqual([]);
    const toggle = button('Show blocks');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await click(toggle);
    expect(cardNames()).toEqual(['Hero 1', 'Feature grid 2', 'Call to action 3']);
    expect(button('Hide blocks').getAttribute('aria-expanded')).toBe('true');
  });

  it('reads as a summary inside a table cell, and as a dash when empty', async () => {
    const table: FieldDef = { key: 'rows', label: 'Rows', type: 'table', columns: [sectionsField] };
    await renderField(
      table,
      { rows: [{ sections: landingPageData().sections }, {}] },
      { environment, readOnly: true },
    );
    expect(bodyText()).toContain('3 blocks: Hero, Feature grid, Call to action');
    expect(bodyText()).toContain('—');
  });
});

describe('blocks field in the item form', () => {
  it('validates the fields of blocks as the user edits them and blocks saving', async () => {
    const onSave = vi.fn(async () => {});
    await renderUi(
      <ItemForm schema={landingPage} value={landingPageData()} mode="edit" canEdit onSave={onSave} />,
    );
    await changeValue(inputIn(card('Feature 2'), 'Name'), '');
    expect(card('Feature 2').textContent).toContain('Name is required');
    expect(button('Save').disabled).toBe(true);
    await changeValue(inputIn(card('Feature 2'), 'Name'), 'Kinder');
    await click(button('Save'));
    const saved = landingPageData();
    (saved.sections[1].features as Block[])[1].name = 'Kinder';
    expect(onSave).toHaveBeenCalledWith(saved, { hasErrors: false });
  });

  it('opens with the generated fields of stored blocks filled, as its starting point', async () => {
    await renderUi(
      <ItemForm
        schema={generatedHero}
        value={{ name: 'x', sections: [{ _type: 'hero', _key: 'h' }] }}
        mode="edit"
        canEdit
        onSave={async () => {}}
      />,
    );
    expect(inputIn(card('Hero 1'), 'Ref').value).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(button('Reset').disabled).toBe(true);
  });

  it('sums the blocks up in a quick view', async () => {
    await renderUi(
      <QuickViewLevelProvider level={1}>
        <ItemForm
          schema={landingPage}
          value={landingPageData()}
          mode="view"
          canEdit
          onSave={async () => {}}
        />
      </QuickViewLevelProvider>,
    );
    expect(bodyText()).toContain('3 blocks: Hero, Feature grid, Call to action');
    expect(cardNames()).toEqual([]);
    expect(queryButton('Show blocks')).not.toBeNull();
  });

  it('compares versions block by block, summed up', async () => {
    const before = landingPageData();
    const after = landingPageData();
    after.sections = [{ ...after.sections[0], title: 'Welcome' }, after.sections[2]];
    await renderUi(
      <ItemForm
        schema={landingPage}
        value={after}
        mode="compare"
        compareWith={{ label: 'Version 1', data: before }}
        canEdit
        onSave={async () => {}}
      />,
    );
    const row = document.querySelector<HTMLElement>('[data-field="sections"][data-changed]')!;
    expect(row.textContent).toContain('3 blocks: Hero, Feature grid, Call to action');
    expect(row.textContent).toContain('2 blocks: Hero, Call to action');
    const changes = row.querySelector<HTMLElement>('[data-block-changes]')!;
    expect(Array.from(changes.children).map((badge) => badge.textContent)).toEqual([
      'Hero 1 changed',
      'Feature grid 2 removed',
    ]);
  });
});
