import { Button, CopyButton } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';

/** Copies `value` to the clipboard and says so for a moment; `label` names it for screen readers. */
export function CopyTextButton({
  value,
  label,
  compact = false,
}: {
  value: string;
  label?: string;
  compact?: boolean;
}) {
  const iconSize = compact ? 12 : 14;
  return (
    <CopyButton value={value}>
      {({ copied, copy }) => (
        <Button
          size={compact ? 'compact-xs' : 'xs'}
          variant={compact ? 'subtle' : 'light'}
          onClick={copy}
          aria-label={label}
          leftSection={copied ? <IconCheck size={iconSize} /> : <IconCopy size={iconSize} />}
        >
          {copied ? 'Copied' : 'Copy'}
        </Button>
      )}
    </CopyButton>
  );
}
