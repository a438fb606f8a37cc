import { Alert } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { errorMessage } from '@web/lib/api-client';
import { SettingHintForCaller, settingOf } from './setting-hint';

/**
 * The server's message for a failed form submission, shown above the form; when the refusal names a
 * server setting (an integration not configured), who can change it.
 */
export function FormError({ error }: { error: unknown }) {
  if (!error) return null;
  const setting = settingOf(error);
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert" mb="md">
      {errorMessage(error)}
      {setting && <SettingHintForCaller setting={setting} />}
    </Alert>
  );
}
