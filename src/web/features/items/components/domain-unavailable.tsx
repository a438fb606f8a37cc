import { Alert } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';

/** Spec §8: 'Domain "{x}" not available' for a domain the workspace has not enabled. */
export function DomainUnavailable({ domain }: { domain: string }) {
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<IconAlertCircle size={18} />}
      role="alert"
      title="Not available"
    >
      {`Domain "${domain}" not available`}
    </Alert>
  );
}

/** Spec §2: single-item when the item's domain is disabled in the workspace. */
const DOMAIN_DISABLED_MESSAGE =
  "This Item's domain has been disabled. Please ask the Workspace administrator to re-enable the domain";

export function DomainDisabled() {
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<IconAlertCircle size={18} />}
      role="alert"
      title="Domain disabled"
      data-testid="domain-disabled"
    >
      {DOMAIN_DISABLED_MESSAGE}
    </Alert>
  );
}
