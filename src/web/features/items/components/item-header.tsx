import { stageValue } from '@shared/publishing/stages';
import type { ReactNode } from 'react';
import { Anchor, Breadcrumbs, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import type { Item } from '@shared/api/items';
import type { Workspace } from '@shared/api/workspaces';
import type { Domain, SchemaType } from '@shared/schemas/types';
import { itemTitle } from '../item-labels';
import { itemScreenPath, schemaListPath } from '@web/lib/item-paths';
import { ApprovalChips, PublishChips } from './item-chips';
import { ScheduleChips } from './schedule-chips';

interface ItemHeaderProps {
  workspace: Workspace;
  domain: Domain;
  schema: SchemaType;
  item?: Item;
  /** Shown after the item in the breadcrumbs (sub-screens: 'Change log', 'Publish', …). */
  section?: string;
  actions?: ReactNode;
  /** Replaces the item's title (new items). */
  title?: string;
}

/** Breadcrumbs, title, ID, version and status chips at the top of every item screen. */
export function ItemHeader({ workspace, domain, schema, item, section, actions, title }: ItemHeaderProps) {
  const ws = workspace.id;
  const name = title ?? (item ? itemTitle(item.data) : schema.title);
  return (
    <Stack gap={6} mb="lg" data-testid="item-header">
      <Breadcrumbs fz="sm" separatorMargin={6}>
        <Anchor component={Link} to={`/${ws}/${domain.name}`} c="dimmed">
          {domain.title}
        </Anchor>
        <Anchor component={Link} to={schemaListPath(ws, domain.name, schema.name)} c="dimmed">
          {schema.pluralTitle}
        </Anchor>
        {section && item ? (
          <Anchor
            component={Link}
            to={itemScreenPath(ws, domain.name, schema.name, item.id)}
            c="dimmed"
            lineClamp={1}
          >
            {name}
          </Anchor>
        ) : (
          <Text span fz="sm" lineClamp={1}>
            {name}
          </Text>
        )}
        {section && (
          <Text span fz="sm">
            {section}
          </Text>
        )}
      </Breadcrumbs>
      <Group justify="space-between" align="flex-start" gap="md" wrap="wrap">
        <Stack gap={6} style={{ minWidth: 0, flex: '1 1 18rem' }}>
          <Title order={1} fz={26} style={{ wordBreak: 'break-word' }} data-testid="item-heading">
            {section ? `${section}: ${name}` : name}
          </Title>
          {item && (
            <Group gap="sm" wrap="wrap">
              <Text size="xs" c="dimmed" ff="monospace">
                ID {item.id}
              </Text>
              <Text size="xs" c="dimmed" data-testid="item-version">
                Version {item.version}
              </Text>
              <PublishChips item={item} ws={ws} domain={domain.name} stages={workspace.basics.stages} />
              <ApprovalChips item={item} roles={workspace.roles} />
              <ScheduleChips
                ws={ws}
                item={item}
                zone={workspace.basics.timezones[0]}
                stageLabel={(stage) =>
                  workspace.basics.stages.find((label) => stageValue(label) === stage) ?? stage
                }
              />
            </Group>
          )}
        </Stack>
        {actions && <Group gap="xs">{actions}</Group>}
      </Group>
    </Stack>
  );
}
