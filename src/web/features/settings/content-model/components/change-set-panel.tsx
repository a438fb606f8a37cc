import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Box, Button, Card, CloseButton, Collapse, Group, Text, UnstyledButton } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconChevronDown, IconChevronUp } from '@tabler/icons-react';
import { describeOp } from '@shared/model/describe';
import type { ModelOp } from '@shared/model/types';

export const changesWord = (count: number) => `${count} ${count === 1 ? 'change' : 'changes'}`;

interface Props {
  ops: readonly ModelOp[];
  onDrop: (index: number) => void;
  onDiscard: () => void;
  onReview: () => void;
  onApply: () => void;
  isPlanning: boolean;
  isApplying: boolean;
  /** Whether the review dialog is open: as it closes, focus comes back to Review. */
  isReviewing: boolean;
  /** Why the last review or apply failed. */
  alert?: ReactNode;
}

/** The pending change set at the foot of the screen: its operations in words, each one droppable. */
export function ChangeSetPanel({
  ops,
  onDrop,
  onDiscard,
  onReview,
  onApply,
  isPlanning,
  isApplying,
  isReviewing,
  alert,
}: Props) {
  // On a phone the list would cover the screen: it starts folded there.
  const isSmall = useMediaQuery('(max-width: 48em)');
  const [chosen, setOpen] = useState<boolean | null>(null);
  const isOpen = chosen ?? !isSmall;
  const review = useRef<HTMLButtonElement>(null);
  const wasReviewing = useRef(isReviewing);
  useEffect(() => {
    if (wasReviewing.current && !isReviewing) review.current?.focus();
    wasReviewing.current = isReviewing;
  }, [isReviewing]);
  const title = `${changesWord(ops.length)} not applied`;
  return (
    <Card
      p="md"
      shadow="md"
      component="section"
      aria-label="Pending changes"
      style={{ position: 'sticky', bottom: 12, zIndex: 5, borderColor: 'var(--mantine-color-orange-4)' }}
    >
      {alert}
      <Group justify="space-between" wrap="wrap" gap="sm">
        <UnstyledButton onClick={() => setOpen(!isOpen)} aria-expanded={isOpen} aria-controls="pending-ops">
          <Group gap={6}>
            {isOpen ? <IconChevronDown size={16} /> : <IconChevronUp size={16} />}
            <Text fw={650} size="sm">
              {title}
            </Text>
          </Group>
        </UnstyledButton>
        <Group gap="sm">
          <Button variant="default" onClick={onDiscard} disabled={isApplying}>
            Discard
          </Button>
          <Button ref={review} variant="light" onClick={onReview} loading={isPlanning} disabled={isApplying}>
            Review
          </Button>
          <Button onClick={onApply} loading={isApplying}>
            Apply
          </Button>
        </Group>
      </Group>
      <Collapse expanded={isOpen} id="pending-ops">
        <Box mah={180} mt="sm" style={{ overflowY: 'auto' }}>
          <ol style={{ margin: 0, paddingLeft: 22 }} aria-label="Pending operations">
            {ops.map((op, index) => {
              const words = describeOp(op);
              return (
                <li key={`${index}:${words}`}>
                  <Group gap={6} wrap="nowrap" justify="space-between">
                    <Text size="sm">{words}</Text>
                    <CloseButton size="sm" aria-label={`Drop: ${words}`} onClick={() => onDrop(index)} />
                  </Group>
                </li>
              );
            })}
          </ol>
        </Box>
      </Collapse>
    </Card>
  );
}
