import type { ReactNode } from 'react';
import { Alert, Anchor, Badge, Button, Group, List, Modal, Paper, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { OpImpact, PlanAnswer } from '@shared/api/content-model';
import type { ContentModelDoc } from '@shared/model/types';
import { itemScreenPath } from '@web/lib/item-paths';
import { changesWord } from './change-set-panel';

/** Ids shown as links under each count; the plan answers more. */
const SHOWN_IDS = 10;

const itemsWord = (count: number) => `${count} ${count === 1 ? 'item' : 'items'}`;

/** The schema whose items an operation's ids are, when it names one. */
const schemaOf = (impact: OpImpact): string | undefined => {
  const op = impact.op as { schema?: unknown };
  return typeof op.schema === 'string' ? op.schema : undefined;
};

const domainOf = (model: ContentModelDoc, schema: string) =>
  model.domains.find((domain) => domain.schemas.some((s) => s.name === schema))?.name;

function ImpactIds({
  ws,
  ids,
  count,
  schema,
  domain,
}: {
  ws: string;
  ids: readonly string[];
  count: number;
  schema?: string;
  domain?: string;
}) {
  const shown = ids.slice(0, SHOWN_IDS);
  return (
    <Group gap={6}>
      {shown.map((id) =>
        schema && domain ? (
          <Anchor
            key={id}
            component={Link}
            to={itemScreenPath(ws, domain, schema, id)}
            size="sm"
            ff="monospace"
          >
            {id}
          </Anchor>
        ) : (
          <Text key={id} size="sm" ff="monospace">
            {id}
          </Text>
        ),
      )}
      {count > shown.length && (
        <Text size="sm" c="dimmed">
          and {count - shown.length} more
        </Text>
      )}
    </Group>
  );
}

/**
 * What a change set would do, operation by operation: the items it touches, those that would become
 * incomplete (the first ones linked to their item pages) and any warning.
 */
function PlanView({ ws, plan, model }: { ws: string; plan: PlanAnswer; model: ContentModelDoc }) {
  return (
    <Stack gap="sm" data-testid="plan">
      {plan.impacts.map((impact, index) => {
        const schema = schemaOf(impact);
        const domain = schema ? domainOf(model, schema) : undefined;
        return (
          <Paper key={index} p="sm" radius="md">
            <Stack gap={6}>
              <Text size="sm" fw={600}>
                {impact.summary}
              </Text>
              <Group gap="xs">
                <Badge variant="light" color="gray" tt="none">
                  {itemsWord(impact.touched)} touched
                </Badge>
                <Badge variant="light" color={impact.failing.count > 0 ? 'orange' : 'teal'} tt="none">
                  {impact.failing.count > 0
                    ? `${itemsWord(impact.failing.count)} would become incomplete`
                    : 'No item becomes incomplete'}
                </Badge>
              </Group>
              {impact.failing.count > 0 && (
                <ImpactIds
                  ws={ws}
                  ids={impact.failing.ids}
                  count={impact.failing.count}
                  schema={schema}
                  domain={domain}
                />
              )}
              {impact.warning && (
                <Alert variant="light" color="yellow" icon={<IconAlertTriangle size={16} />} p="xs">
                  {impact.warning}
                </Alert>
              )}
            </Stack>
          </Paper>
        );
      })}
    </Stack>
  );
}

/** The review of a change set before applying it. */
export function ReviewDialog({
  ws,
  plan,
  model,
  alert,
  isApplying,
  onApply,
  onClose,
}: {
  ws: string;
  plan: PlanAnswer;
  /** The model the plan was made against, to find the domain of each schema its ids are of. */
  model: ContentModelDoc;
  /** Why applying failed. */
  alert?: ReactNode;
  isApplying: boolean;
  onApply: () => void;
  onClose: () => void;
}) {
  return (
    <Modal
      opened
      onClose={onClose}
      title={<Text fw={650}>Review {changesWord(plan.impacts.length)}</Text>}
      size="xl"
    >
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          Nothing is written yet. Applying changes the model and converts the existing items together, all or
          nothing, and every change can be reverted from History.
        </Text>
        <PlanView ws={ws} plan={plan} model={model} />
        {alert}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Back to editing
          </Button>
          <Button onClick={onApply} loading={isApplying}>
            Apply {changesWord(plan.impacts.length)}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Applies a planned change set, first asking when it removes schemas, with how many items each has. */
export function confirmRemovals(plan: PlanAnswer, applied: ContentModelDoc, onConfirm: () => void) {
  const removals = plan.impacts.filter((impact) => impact.op.op === 'removeSchema');
  if (removals.length === 0) return onConfirm();
  const titleOf = (name: string) =>
    applied.domains.flatMap((domain) => domain.schemas).find((schema) => schema.name === name)?.title ?? name;
  modals.openConfirmModal({
    title: removals.length === 1 ? 'Remove a schema?' : `Remove ${removals.length} schemas?`,
    children: (
      <Stack gap="xs">
        <List size="sm">
          {removals.map((impact, index) => (
            <List.Item key={index}>
              {titleOf(String(schemaOf(impact)))} has {itemsWord(impact.touched)}
              {impact.warning ? `: ${impact.warning}` : ''}
            </List.Item>
          ))}
        </List>
        <Text size="sm">
          Their items are kept but no longer shown. Reverting this change in History brings them back.
        </Text>
      </Stack>
    ),
    labels: { confirm: 'Remove and apply', cancel: 'Cancel' },
    confirmProps: { color: 'red' },
    onConfirm,
  });
}
