import { Box } from '@mantine/core';
import { Outlet, useLocation } from 'react-router';
import { PageHeader } from '@web/components/page-header';
import { SETTINGS_SECTIONS } from './components/settings-nav';

/** /{workspace}/_settings: the section's title above its screen; the sidebar is in the app shell. */
export default function SettingsLayout() {
  const { pathname } = useLocation();
  const id = pathname.split('/')[3] || 'basics';
  const section = SETTINGS_SECTIONS.find((s) => s.id === id);
  return (
    <Box maw={960}>
      {section && <PageHeader eyebrow="Settings" title={section.label} description={section.description} />}
      <Outlet />
    </Box>
  );
}
