import { Badge, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconFlag } from '@tabler/icons-react';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import { stepLabel } from './definition';
import type { EntryNode, StepNode } from './graph';
import { ENTRY_HANDLE } from './graph';
import { entrySummary } from './entry-forms';
import { stepKindOf } from './step-kinds';
import classes from './journey-canvas.module.css';

const classNames = (...names: (string | false)[]) => names.filter(Boolean).join(' ');

/** A step: its kind, name and what it does, the profiles waiting at it, and one labelled handle per exit. */
export function StepNodeView({ data, selected }: NodeProps<StepNode>) {
  const { step, exits, isStart, problems, counts } = data;
  const kind = stepKindOf(step.type);
  return (
    <div
      className={classNames(
        classes.node,
        selected && classes.selected,
        problems.length > 0 && classes.invalid,
      )}
      data-testid={`journey-node-${step.id}`}
      data-invalid={problems.length > 0 || undefined}
    >
      <Handle type="target" position={Position.Top} className={classes.handle} />
      <Stack gap={2} p={8}>
        <Group gap={4} justify="space-between" wrap="nowrap">
          <Group gap={4} wrap="nowrap">
            <kind.icon size={14} aria-hidden />
            <Text size="xs" fw={600}>
              {kind.title}
            </Text>
          </Group>
          {isStart && <IconFlag size={14} aria-label="First step" />}
        </Group>
        <Text size="sm" fw={500} truncate>
          {stepLabel(step)}
        </Text>
        {kind.summary && (
          <Text size="xs" c="dimmed" truncate>
            {kind.summary(step)}
          </Text>
        )}
        {counts && (
          <Badge size="sm" variant="light" color="teal" data-testid="journey-node-waiting">
            {counts.waiting} waiting
          </Badge>
        )}
        {problems[0] && (
          <Group gap={4} wrap="nowrap" align="flex-start">
            <IconAlertTriangle
              size={14}
              color="var(--mantine-color-red-filled)"
              aria-hidden
              style={{ flex: 'none' }}
            />
            <Text size="xs" c="red" lineClamp={3}>
              {problems[0]}
            </Text>
          </Group>
        )}
      </Stack>
      {exits.length > 0 && (
        <div className={classes.exits}>
          {exits.map((exit) => (
            <span key={exit} className={classes.exit}>
              {exit}
              <Handle id={exit} type="source" position={Position.Bottom} className={classes.exitHandle} />
            </span>
          ))}
        </div>
      )}
    </div>
  );
}

/** The entry: how profiles come in; its handle joins the first step. */
export function EntryNodeView({ data, selected }: NodeProps<EntryNode>) {
  return (
    <div
      className={classNames(
        classes.node,
        classes.entry,
        selected && classes.selected,
        data.problems.length > 0 && classes.invalid,
      )}
      data-testid="journey-node-entry"
    >
      <Stack gap={2} p={8}>
        <Text size="xs" fw={600}>
          Entry
        </Text>
        <Text size="sm" fw={500} truncate>
          {entrySummary(data.entry)}
        </Text>
        {data.problems[0] && (
          <Text size="xs" c="red" lineClamp={3}>
            {data.problems[0]}
          </Text>
        )}
      </Stack>
      <Handle id={ENTRY_HANDLE} type="source" position={Position.Bottom} className={classes.handle} />
    </div>
  );
}
