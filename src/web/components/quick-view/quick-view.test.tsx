import { useState } from 'react';
import { MantineProvider } from '@mantine/core';
import { MemoryRouter } from 'react-router';
import { click, findByText, queryByText, render, waitFor } from '@web/test/render';
import { theme } from '../../app/theme';
import { QuickView } from './quick-view';
import { QuickViewLevelProvider, useQuickViewLevel } from './quick-view-level';

function Level() {
  return <span data-testid="level">{useQuickViewLevel()}</span>;
}

function Harness({ isEditing, level = 0 }: { isEditing: boolean; level?: number }) {
  const [opened, setOpened] = useState(true);
  return (
    <MemoryRouter>
      <MantineProvider theme={theme}>
        <QuickViewLevelProvider level={level}>
          {!opened && <span>closed</span>}
          <QuickView
            opened={opened}
            onClose={() => setOpened(false)}
            title="Spring sale"
            isEditing={isEditing}
            detailsHref="/acme/marketing/copy/x1"
          >
            <Level />
          </QuickView>
        </QuickViewLevelProvider>
      </MantineProvider>
    </MemoryRouter>
  );
}

const button = (name: string) =>
  [...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === name) as HTMLButtonElement;

describe('QuickView', () => {
  it('closes with Done and shows the Esc hint', async () => {
    await render(<Harness isEditing={false} />);
    await findByText('Spring sale');
    expect(document.body.textContent).toContain('Esc');
    expect(document.body.textContent).toContain('to close');
    await click(button('Done'));
    await findByText('closed');
  });

  it("refuses to close while editing: 'Save or cancel to be able to close.'", async () => {
    await render(<Harness isEditing />);
    await findByText('Spring sale');
    await click(button('Done'));
    await findByText('Save or cancel to be able to close.');
    expect(queryByText('closed')).toBeNull();
  });

  it('offers Details only when nested, and tells its content it is one level deeper', async () => {
    await render(<Harness isEditing={false} />);
    await findByText('Spring sale');
    expect(queryByText('Details')).toBeNull();
    expect(document.querySelector('[data-testid="level"]')?.textContent).toBe('1');
    expect(document.querySelector('[data-testid="quick-view-0"]')).not.toBeNull();
  });

  it('is 80% wide at the first nesting level, with a Details link to the full page', async () => {
    await render(<Harness isEditing={false} level={1} />);
    await findByText('Details');
    const link = queryByText('Details')!.closest('a')!;
    expect(link.getAttribute('href')).toBe('/acme/marketing/copy/x1');
    await waitFor(() => expect(document.querySelector('[data-testid="quick-view-1"]')).not.toBeNull());
    const sized = [...document.querySelectorAll<HTMLElement>('[style]')].find((el) =>
      el.style.getPropertyValue('--drawer-size'),
    );
    expect(sized?.style.getPropertyValue('--drawer-size')).toBe('80%');
  });
});
