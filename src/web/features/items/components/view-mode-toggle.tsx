import { SegmentedControl, VisuallyHidden } from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import { IconLayoutGrid, IconList } from '@tabler/icons-react';

export type ViewMode = 'list' | 'cards';

/** Spec §2 item list: a toggle between list view and cards view, remembered per browser. */
export function useViewMode() {
  return useLocalStorage<ViewMode>({ key: 'marquee-view-mode', defaultValue: 'list' });
}

export function ViewModeToggle({ value, onChange }: { value: ViewMode; onChange: (mode: ViewMode) => void }) {
  return (
    <SegmentedControl
      size="xs"
      value={value}
      onChange={(mode) => onChange(mode as ViewMode)}
      aria-label="View mode"
      data={[
        {
          value: 'list',
          label: (
            <>
              <IconList size={16} style={{ display: 'block' }} />
              <VisuallyHidden>List view</VisuallyHidden>
            </>
          ),
        },
        {
          value: 'cards',
          label: (
            <>
              <IconLayoutGrid size={16} style={{ display: 'block' }} />
              <VisuallyHidden>Cards view</VisuallyHidden>
            </>
          ),
        },
      ]}
    />
  );
}
