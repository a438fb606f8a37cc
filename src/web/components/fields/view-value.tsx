import type { ReactNode } from 'react';
import { Text } from '@mantine/core';

/** How an empty value reads in view and compare modes. */
const EMPTY_DISPLAY = '—';

/** A read-only value: plain text that keeps line breaks, or a dimmed dash when empty. */
export function ViewValue({ children, empty }: { children?: ReactNode; empty?: boolean }) {
  const isEmpty = empty ?? (children === undefined || children === null || children === '');
  if (isEmpty)
    return (
      <Text c="dimmed" size="sm" data-empty>
        {EMPTY_DISPLAY}
      </Text>
    );
  return (
    <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
      {children}
    </Text>
  );
}

export const asText = (value: unknown): string =>
  typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value);

/**
 * What goes under an input: the field's own help text and a hint of its type, each on its own line;
 * undefined when there is neither.
 */
export function fieldHelp(...lines: (string | undefined)[]): ReactNode {
  const shown = lines.filter((line): line is string => !!line);
  if (shown.length <= 1) return shown[0];
  return shown.map((line) => (
    <span key={line} style={{ display: 'block' }}>
      {line}
    </span>
  ));
}

/** Hints and errors go under the input: the label sits in its own column. */
export const INPUT_ORDER: ('input' | 'description' | 'error' | 'label')[] = ['input', 'description', 'error'];
