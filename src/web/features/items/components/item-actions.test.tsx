import { act } from 'react';
import { MemoryRouter } from 'react-router';
import type { Item } from '@shared/api/items';
import type { Workspace } from '@shared/api/workspaces';
import { testItem } from '@web/test/test-item';
import { findByText } from '@web/test/render';
import { button, renderUi } from '@web/components/item-form/test-utils';
import { ItemActions } from './item-actions';

const workspace = { id: 'acme', basics: { stages: ['Live'] } } as unknown as Workspace;
const post = (abilities: Partial<Item['abilities']>): Item => {
  const item = testItem('blog-post', 'p1', { name: 'Hello' });
  return { ...item, publishStatus: { live: 'CURRENT' }, abilities: { ...item.abilities, ...abilities } };
};

async function openMenu(item: Item) {
  await renderUi(
    <MemoryRouter>
      <ItemActions workspace={workspace} domain="blogging" item={item} />
    </MemoryRouter>,
  );
  await act(async () => button('Actions').click());
  await findByText('Change log');
}
const menuItems = () => Array.from(document.querySelectorAll('[role="menuitem"]')).map((e) => e.textContent);

describe('ItemActions', () => {
  // A member limited to one locale, or one who may not unpublish a published item, was offered Delete.
  it('offers Delete only to a member who may delete the whole item', async () => {
    await openMenu(post({ canEdit: true, canDelete: false }));
    expect(menuItems()).not.toContain('Delete…');
  });

  it('offers Delete to a member who may', async () => {
    await openMenu(post({ canEdit: true, canDelete: true }));
    expect(menuItems()).toContain('Delete…');
  });

  it('offers Duplicate to a member who may edit the schema', async () => {
    await openMenu(post({ canEdit: true }));
    expect(menuItems()).toContain('Duplicate');
  });

  it('does not offer Duplicate to a member who may only read it', async () => {
    await openMenu(post({ canEdit: false }));
    expect(menuItems()).not.toContain('Duplicate');
  });
});
