import type { ReactNode } from 'react';
import {
  Anchor,
  Badge,
  Button,
  Card,
  Code,
  EmptyState,
  Group,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconCircleCheck, IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import {
  UNDECLARED_LIMITS,
  type DeclareBody,
  type UndeclaredAttribute,
  type UndeclaredEvent,
  type UndeclaredEventProperty,
  type UndeclaredList,
} from '@shared/api/undeclared';
import { settingsPath } from '@web/app/guards';
import { FormError } from '@web/components/form-error';
import { formatDateTime, fromNow } from '@web/lib/dates';
import { showToast } from '@web/lib/toast';
import { useCurrentWorkspace } from '@web/lib/workspace';
import { useDeclareUndeclared } from './api/declare-undeclared';
import { useUndeclared } from './api/list-undeclared';

/**
 * /{workspace}/_settings/undeclared: the events, properties and attributes websites and apps sent
 * that the workspace has not declared, with how often and when; one click declares one, with the
 * type its values suggest, for members who may edit those definitions.
 */
export default function UndeclaredRoute() {
  const workspace = useCurrentWorkspace();
  const { data, isPending, error } = useUndeclared(workspace.id);
  const declare = useDeclareUndeclared(workspace.id);
  const handleDeclare = (body: DeclareBody, label: string) =>
    declare.mutate(body, {
      onSuccess: () => showToast({ color: 'teal', message: `Declared the ${label}` }),
    });
  const isEmpty = data && !data.events.length && !data.properties.length && !data.attributes.length;
  return (
    <Stack gap="lg">
      <Text size="sm" c="dimmed">
        Write keys keep what the workspace has not declared, so no event a website sends is lost; declare a
        name to use it in audiences and imports. The workspace keeps up to {UNDECLARED_LIMITS.event}{' '}
        undeclared events, {UNDECLARED_LIMITS.property} properties and {UNDECLARED_LIMITS.attribute}{' '}
        attributes: past that a new name is refused. A{' '}
        <Anchor component={Link} to={settingsPath(workspace.id, 'write-keys')} inherit underline="always">
          strict write key
        </Anchor>{' '}
        refuses them all.
      </Text>
      <FormError error={error ?? declare.error} />
      {isPending ? (
        <Skeleton h={140} radius="md" />
      ) : isEmpty ? (
        <Card p={48}>
          <EmptyState
            icon={<IconCircleCheck size={28} />}
            variant="light"
            title="Nothing undeclared"
            description="Every event, property and attribute sent with the workspace's write keys is declared."
          />
        </Card>
      ) : data ? (
        <UndeclaredTables data={data} onDeclare={handleDeclare} pending={declare.isPending} />
      ) : null}
    </Stack>
  );
}

/** Keys and times read as one piece, never broken at a dash. */
const NO_WRAP = { whiteSpace: 'nowrap' } as const;

type HandleDeclare = (body: DeclareBody, label: string) => void;

/** The tables' shared props: the list, what a click declares and whether one is on its way. */
interface TablesProps {
  data: UndeclaredList;
  onDeclare: HandleDeclare;
  pending: boolean;
}

function UndeclaredTables({ data, ...declare }: TablesProps) {
  const { canDeclareEvents, canDeclareAttributes } = data.abilities;
  return (
    <>
      <SeenTable
        title="Events"
        label="Undeclared events"
        columns={['Event', 'Properties']}
        {...declare}
        rows={data.events.map((event) => ({
          id: event.key,
          name: <Code style={NO_WRAP}>{event.key}</Code>,
          detail: <EventProperties event={event} />,
          seen: event,
          declare: canDeclareEvents
            ? { label: `event ${event.key}`, body: { kind: 'event', key: event.key } }
            : undefined,
        }))}
      />
      <SeenTable
        title="Properties of declared events"
        label="Undeclared properties"
        columns={['Property', 'Type']}
        {...declare}
        rows={data.properties.map((property) => ({
          id: `${property.event}\t${property.name}`,
          name: (
            <>
              <Code style={NO_WRAP}>{property.name}</Code>
              <Text size="xs" c="dimmed">
                of {property.event}
              </Text>
            </>
          ),
          detail: <TypeSeen seen={property} />,
          seen: property,
          declare: canDeclareEvents
            ? {
                label: `property ${property.name} of ${property.event}`,
                body: { kind: 'property', event: property.event, name: property.name },
              }
            : undefined,
        }))}
      />
      <SeenTable
        title="Profile attributes"
        label="Undeclared attributes"
        columns={['Attribute', 'Type']}
        {...declare}
        rows={data.attributes.map((attribute) => ({
          id: attribute.key,
          name: <Code style={NO_WRAP}>{attribute.key}</Code>,
          detail: <TypeSeen seen={attribute} />,
          seen: attribute,
          declare: canDeclareAttributes
            ? { label: `attribute ${attribute.key}`, body: { kind: 'attribute', key: attribute.key } }
            : undefined,
        }))}
      />
    </>
  );
}

/** A row of a table: the name, its type or properties, how often and when, and its one click if allowed. */
interface SeenRow {
  id: string;
  name: ReactNode;
  detail: ReactNode;
  seen: Seen;
  declare?: { label: string; body: DeclareBody };
}

/** One kind of undeclared name as a table under its title; nothing when there is none. */
function SeenTable({
  title,
  label,
  columns,
  rows,
  onDeclare,
  pending,
}: {
  title: string;
  label: string;
  columns: [string, string];
  rows: SeenRow[];
} & Omit<TablesProps, 'data'>) {
  if (!rows.length) return null;
  return (
    <Section title={title} count={rows.length}>
      <Table verticalSpacing="sm" horizontalSpacing="md" aria-label={label}>
        <SeenHead first={columns[0]} second={columns[1]} />
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.id}>
              <Table.Td>{row.name}</Table.Td>
              <Table.Td>{row.detail}</Table.Td>
              <SeenCells seen={row.seen} />
              <Table.Td ta="right">
                {row.declare && <DeclareButton {...row.declare} onDeclare={onDeclare} pending={pending} />}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Section>
  );
}

function DeclareButton({
  label,
  body,
  onDeclare,
  pending,
}: { label: string; body: DeclareBody } & Omit<TablesProps, 'data'>) {
  return (
    <Button
      size="xs"
      variant="light"
      leftSection={<IconPlus size={14} />}
      aria-label={`Declare ${label}`}
      disabled={pending}
      onClick={() => onDeclare(body, label)}
    >
      Declare
    </Button>
  );
}

function Section({ title, count, children }: { title: string; count: number; children: ReactNode }) {
  return (
    <Card p={0}>
      <Group gap="xs" px="md" pt="md" pb="xs">
        <Title order={3} size="h5">
          {title}
        </Title>
        <Badge variant="light" color="gray">
          {count}
        </Badge>
      </Group>
      {children}
    </Card>
  );
}

function SeenHead({ first, second }: { first: string; second: string }) {
  return (
    <Table.Thead>
      <Table.Tr>
        <Table.Th>{first}</Table.Th>
        <Table.Th>{second}</Table.Th>
        <Table.Th ta="right">Sent</Table.Th>
        <Table.Th>First seen</Table.Th>
        <Table.Th>Last seen</Table.Th>
        <Table.Th />
      </Table.Tr>
    </Table.Thead>
  );
}

type Seen = Pick<UndeclaredEvent, 'count' | 'firstSeen' | 'lastSeen'>;

function SeenCells({ seen }: { seen: Seen }) {
  return (
    <>
      <Table.Td ta="right">
        <Text size="sm">{seen.count.toLocaleString()}</Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm" style={NO_WRAP} title={formatDateTime(seen.firstSeen)}>
          {fromNow(seen.firstSeen)}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm" style={NO_WRAP} title={formatDateTime(seen.lastSeen)}>
          {fromNow(seen.lastSeen)}
        </Text>
      </Table.Td>
    </>
  );
}

/** The type a click declares, and the other types sent (their values would then be refused). */
function TypeSeen({ seen }: { seen: Pick<UndeclaredAttribute | UndeclaredEventProperty, 'type' | 'types'> }) {
  const others = Object.entries(seen.types).filter(([type]) => type !== seen.type);
  return (
    <Stack gap={2}>
      <Badge variant="light" tt="none">
        {seen.type}
      </Badge>
      {others.length > 0 && (
        <Text size="xs" c="dimmed">
          also sent: {others.map(([type, count]) => `${type} (${count})`).join(', ')}
        </Text>
      )}
    </Stack>
  );
}

function EventProperties({ event }: { event: UndeclaredEvent }) {
  if (!event.properties.length)
    return (
      <Text size="sm" c="dimmed">
        None
      </Text>
    );
  return (
    <Group gap={4}>
      {event.properties.map((property) => (
        <Badge key={property.name} variant="outline" color="gray" tt="none">
          {property.name}: {property.type}
        </Badge>
      ))}
    </Group>
  );
}
