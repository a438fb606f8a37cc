import { Alert } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { errorMessage } from '@web/lib/api-client';

/** The server's message for a failed form submission, shown above the form. */
export function FormError({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert" mb="md">
      {errorMessage(error)}
    </Alert>
  );
}
