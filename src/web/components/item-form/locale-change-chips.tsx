import { Badge, Group } from '@mantine/core';
import type { LocaleChanges } from '@shared/locales/changes';

/** The locales a change touched, one chip each, and a chip for fields every locale shares. */
export function LocaleChangeChips({ changes, label }: { changes: LocaleChanges; label: string }) {
  if (changes.locales.length === 0 && !changes.shared) return null;
  return (
    <Group gap={4} role="list" aria-label={label} data-testid="locale-changes">
      {changes.locales.map((tag) => (
        <Badge key={tag} role="listitem" size="xs" variant="light" color="violet" tt="none">
          {tag}
        </Badge>
      ))}
      {changes.shared && (
        <Badge role="listitem" size="xs" variant="light" color="gray" tt="none">
          Shared fields
        </Badge>
      )}
    </Group>
  );
}
