import { type ReactNode } from 'react';
import { Accordion, Badge, Button, Card, Code, Group, Stack, Text, Title } from '@mantine/core';
import { IconBox, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import type { Workspace } from '@shared/api/workspaces';
import type { ContentModelDoc, FieldOwner, ModelDomain, ModelOp } from '@shared/model/types';
import type { BlockType, FieldDef, SchemaType } from '@shared/schemas/types';
import { DomainIcon, SchemaIcon } from '@web/components/schema-icon';
import { showToast } from '@web/lib/toast';
import { removeFieldOps } from '../change-set';
import { FieldEditor } from './field-editor';
import { useDialog } from './use-dialog';
import { changedKeys, FieldTable, type FieldAction } from './field-table';
import { AddDomainDialog, AddSchemaDialog, BlockTypeDialog, EditSchemaDialog } from './model-dialogs';

type Change = (ops: ModelOp[]) => string | undefined;

type Dialog =
  | ({ kind: 'field'; owner: FieldOwner; ownerTitle: string; fields: readonly FieldDef[] } & FieldAction)
  | { kind: 'addDomain' }
  | { kind: 'addSchema'; domain: string }
  | { kind: 'editSchema'; schema: SchemaType }
  | { kind: 'blockType'; blockType?: BlockType };

interface Props {
  workspace: Workspace;
  /** The model with the pending operations applied: what the screen shows. */
  model: ContentModelDoc;
  /** The model as applied, to mark what the pending operations change. */
  applied: ContentModelDoc;
  /** The pending operations. */
  ops: readonly ModelOp[];
  onChange: Change;
}

const json = (value: unknown) => JSON.stringify(value);

/** Keys of the fields that pending moves name, per owner ('schema:blog-post', 'blockType:hero'). */
function movedKeys(ops: readonly ModelOp[]): Map<string, Set<string>> {
  const moved = new Map<string, Set<string>>();
  for (const op of ops) {
    // A moved column changes its table, which is marked as changed.
    if (op.op !== 'moveField' || op.table !== undefined) continue;
    const owner = op.schema !== undefined ? `schema:${op.schema}` : `blockType:${op.blockType}`;
    moved.set(owner, (moved.get(owner) ?? new Set()).add(op.key));
  }
  return moved;
}

/** Whether a schema or block type differs from its applied self, apart from its fields. */
const isOwnChanged = (owner: SchemaType | BlockType, before: SchemaType | BlockType) =>
  json({ ...owner, fields: 0 }) !== json({ ...before, fields: 0 });

/**
 * The content model as it will be once the pending change set is applied: domains with their schemas and
 * fields, and the block types. Every action adds operations to the change set.
 */
export function ModelView({ workspace, model, applied, ops, onChange }: Props) {
  const [dialog, setDialog, closeDialog] = useDialog<Dialog>();
  const appliedSchemas = new Map(applied.domains.flatMap((d) => d.schemas).map((s) => [s.name, s]));
  const appliedBlockTypes = new Map(applied.blockTypes.map((b) => [b.name, b]));
  const moved = movedKeys(ops);
  const none = new Set<string>();

  /** An action outside a dialog: its refusal is a toast. */
  const change: Change = (ops) => {
    const problem = onChange(ops);
    if (problem) showToast({ color: 'red', title: 'That change cannot be made', message: problem });
    return problem;
  };
  /** What a schema's or block type's item shows and does, marked against its applied self. */
  const ownerProps = (
    owner: FieldOwner,
    current: SchemaType | BlockType,
    before?: SchemaType | BlockType,
  ) => {
    const { name, title, fields } = current;
    const movedHere = moved.get(owner.schema !== undefined ? `schema:${name}` : `blockType:${name}`);
    return {
      name,
      title,
      state: !before ? ('New' as const) : isOwnChanged(current, before) ? ('Changed' as const) : undefined,
      changed: changedKeys(fields, before?.fields, movedHere ?? none),
      owner,
      ownerTitle: title,
      fields,
      onEdit: (action: FieldAction) =>
        setDialog({ kind: 'field', owner, ownerTitle: title, fields, ...action }),
      onChange: change,
      onRemove: (key: string) => change(removeFieldOps(model, owner, key)),
    };
  };

  return (
    <Stack gap="lg">
      <ModelToolbar model={model} onAddDomain={() => setDialog({ kind: 'addDomain' })} />
      {model.domains.map((domain) => (
        <DomainCard
          key={domain.name}
          domain={domain}
          isNew={!applied.domains.some((d) => d.name === domain.name)}
          onAddSchema={() => setDialog({ kind: 'addSchema', domain: domain.name })}
          onRemove={() => change([{ op: 'removeDomain', domain: domain.name }])}
        >
          <Accordion multiple variant="separated" chevronPosition="left">
            {domain.schemas.map((schema) => (
              <OwnerItem
                key={schema.name}
                kind="schema"
                icon={<SchemaIcon name={schema.icon} />}
                summary={`Plural: ${schema.pluralTitle} · Top fields: ${schema.topFields.join(', ') || 'none'}`}
                onEditOwner={() => setDialog({ kind: 'editSchema', schema })}
                onRemoveOwner={
                  schema.fields.some((field) => field.locked)
                    ? undefined
                    : () => change([{ op: 'removeSchema', schema: schema.name }])
                }
                {...ownerProps({ schema: schema.name }, schema, appliedSchemas.get(schema.name))}
              />
            ))}
          </Accordion>
        </DomainCard>
      ))}
      <BlockTypesCard isEmpty={model.blockTypes.length === 0} onAdd={() => setDialog({ kind: 'blockType' })}>
        <Accordion multiple variant="separated" chevronPosition="left">
          {model.blockTypes.map((blockType) => (
            <OwnerItem
              key={blockType.name}
              kind="block type"
              icon={
                blockType.icon ? <SchemaIcon name={blockType.icon} /> : <IconBox size={18} stroke={1.6} />
              }
              onEditOwner={() => setDialog({ kind: 'blockType', blockType })}
              onRemoveOwner={() => change([{ op: 'removeBlockType', blockType: blockType.name }])}
              {...ownerProps({ blockType: blockType.name }, blockType, appliedBlockTypes.get(blockType.name))}
            />
          ))}
        </Accordion>
      </BlockTypesCard>
      {dialog && (
        <ModelDialog
          dialog={dialog}
          workspace={workspace}
          model={model}
          applied={applied}
          onChange={onChange}
          onClose={closeDialog}
        />
      )}
    </Stack>
  );
}

/** The dialog an action opened; each adds its operations to the change set and shows a refusal. */
function ModelDialog({
  dialog,
  workspace,
  model,
  applied,
  onChange,
  onClose,
}: {
  dialog: Dialog;
  workspace: Workspace;
  model: ContentModelDoc;
  applied: ContentModelDoc;
  onChange: Change;
  onClose: () => void;
}) {
  const locales = workspace.basics.locales;
  switch (dialog.kind) {
    case 'field':
      return (
        <FieldEditor
          owner={dialog.owner}
          ownerTitle={dialog.ownerTitle}
          field={dialog.field}
          fields={dialog.fields}
          model={model}
          applied={applied}
          otherLocales={locales ? locales.tags.filter((tag) => tag !== locales.default) : []}
          focus={dialog.focus}
          onSubmit={onChange}
          onClose={onClose}
        />
      );
    case 'addDomain':
      return <AddDomainDialog onChange={onChange} onClose={onClose} />;
    case 'addSchema':
      return <AddSchemaDialog model={model} domain={dialog.domain} onChange={onChange} onClose={onClose} />;
    case 'editSchema':
      return <EditSchemaDialog schema={dialog.schema} onChange={onChange} onClose={onClose} />;
    case 'blockType':
      return <BlockTypeDialog blockType={dialog.blockType} onChange={onChange} onClose={onClose} />;
  }
}

const ChangeBadge = ({ children }: { children: ReactNode }) => (
  <Badge size="xs" variant="dot" color="orange" tt="none">
    {children}
  </Badge>
);

/** A schema or block type: its heading opens its fields, with its own edit and remove actions. */
function OwnerItem({
  kind,
  name,
  title,
  icon,
  state,
  summary,
  onEditOwner,
  onRemoveOwner,
  ...table
}: {
  kind: 'schema' | 'block type';
  name: string;
  title: string;
  icon: ReactNode;
  state?: 'New' | 'Changed';
  summary?: string;
  onEditOwner: () => void;
  /** None for a schema Marquee relies on. */
  onRemoveOwner?: () => void;
} & React.ComponentProps<typeof FieldTable>) {
  const isChanged = state !== undefined || table.changed.size > 0;
  return (
    <Accordion.Item value={name} data-testid={`${kind.replace(' ', '-')}-${name}`}>
      <Accordion.Control>
        <Group gap="xs">
          {icon}
          <Text fw={600} size="sm">
            {title}
          </Text>
          <Code>{name}</Code>
          <Text size="xs" c="dimmed">
            {table.fields.length} {table.fields.length === 1 ? 'field' : 'fields'}
          </Text>
          {isChanged && <ChangeBadge>{state ?? 'Changed'}</ChangeBadge>}
        </Group>
      </Accordion.Control>
      <Accordion.Panel>
        <Group justify="space-between" mb="xs" gap="xs">
          <Text size="sm" c="dimmed">
            {summary}
          </Text>
          <Group gap="xs">
            <Button
              size="xs"
              variant="subtle"
              leftSection={<IconPencil size={14} />}
              aria-label={`Edit ${kind} ${title}`}
              onClick={onEditOwner}
            >
              Edit {kind}
            </Button>
            {onRemoveOwner && (
              <Button
                size="xs"
                variant="subtle"
                color="red"
                leftSection={<IconTrash size={14} />}
                aria-label={`Remove ${kind} ${title}`}
                onClick={onRemoveOwner}
              >
                Remove {kind}
              </Button>
            )}
          </Group>
        </Group>
        <FieldTable {...table} />
      </Accordion.Panel>
    </Accordion.Item>
  );
}

function DomainCard({
  domain,
  isNew,
  onAddSchema,
  onRemove,
  children,
}: {
  domain: ModelDomain;
  isNew: boolean;
  onAddSchema: () => void;
  onRemove: () => void;
  children: ReactNode;
}) {
  const isEmpty = domain.schemas.length === 0;
  return (
    <Card p="lg" data-testid={`domain-${domain.name}`}>
      <Group justify="space-between" mb="sm" gap="xs">
        <Group gap="sm">
          <DomainIcon name={domain.name} size={20} />
          <Title order={2} size="h4">
            {domain.title}
          </Title>
          <Code>{domain.name}</Code>
          {domain.admin && (
            <Badge size="sm" variant="light" color="gray" tt="none">
              Managers only
            </Badge>
          )}
          {isNew && <ChangeBadge>New</ChangeBadge>}
        </Group>
        <Group gap="xs">
          {isEmpty && (
            <Button
              size="xs"
              variant="subtle"
              color="red"
              leftSection={<IconTrash size={14} />}
              aria-label={`Remove domain ${domain.title}`}
              onClick={onRemove}
            >
              Remove domain
            </Button>
          )}
          <Button
            size="xs"
            variant="light"
            leftSection={<IconPlus size={14} />}
            aria-label={`Add schema to ${domain.title}`}
            onClick={onAddSchema}
          >
            Add schema
          </Button>
        </Group>
      </Group>
      {isEmpty ? (
        <Text size="sm" c="dimmed">
          No schemas yet.
        </Text>
      ) : (
        children
      )}
    </Card>
  );
}

function BlockTypesCard({
  isEmpty,
  onAdd,
  children,
}: {
  isEmpty: boolean;
  onAdd: () => void;
  children: ReactNode;
}) {
  return (
    <Card p="lg">
      <Group justify="space-between" mb="sm">
        <div>
          <Title order={2} size="h4">
            Block types
          </Title>
          <Text size="sm" c="dimmed">
            Pieces of modular content that blocks fields offer
          </Text>
        </div>
        <Button size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={onAdd}>
          Add block type
        </Button>
      </Group>
      {isEmpty && (
        <Text size="sm" c="dimmed">
          No block types yet.
        </Text>
      )}
      {children}
    </Card>
  );
}

function ModelToolbar({ model, onAddDomain }: { model: ContentModelDoc; onAddDomain: () => void }) {
  const schemaCount = model.domains.reduce((count, domain) => count + domain.schemas.length, 0);
  return (
    <Group justify="space-between">
      <Text size="sm" c="dimmed">
        {model.domains.length} domains, {schemaCount} schemas, {model.blockTypes.length} block types
      </Text>
      <Button variant="default" leftSection={<IconPlus size={16} />} onClick={onAddDomain}>
        Add domain
      </Button>
    </Group>
  );
}
