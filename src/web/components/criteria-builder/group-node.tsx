import {
  ActionIcon,
  Badge,
  Box,
  Button,
  Group,
  SegmentedControl,
  Stack,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconActivity, IconFolderPlus, IconTrash, IconUser, IconUsersGroup } from '@tabler/icons-react';
import type { CriteriaDefinitions } from '@shared/api/customers';
import {
  canAddGroup,
  newAttributeRule,
  newAudienceRule,
  newEventRule,
  newGroup,
} from '@shared/criteria/defaults';
import { appendChild, removeNode, updateNode, type NodePath } from '@shared/criteria/edit';
import { childLabel, isGroup, type CriteriaGroup, type CriteriaNode } from '@shared/criteria/tree';
import { AttributeRuleRow, AudienceRuleRow, EventRuleRow } from './rules';

interface GroupNodeProps {
  root: CriteriaGroup;
  group: CriteriaGroup;
  path: NodePath;
  defs: CriteriaDefinitions;
  onChange: (root: CriteriaGroup) => void;
  readOnly: boolean;
}

/** The kinds of rule a group can add, in the order of their buttons. */
const NEW_RULES = [
  { label: 'Attribute rule', Icon: IconUser, create: newAttributeRule },
  { label: 'Behavior rule', Icon: IconActivity, create: newEventRule },
  { label: 'Audience rule', Icon: IconUsersGroup, create: newAudienceRule },
] as const;

/** The buttons that add rules and groups, and Clear (the root) or Remove group (any other group). */
function GroupActions({
  group,
  isRoot,
  onAdd,
  onClear,
  onRemove,
}: {
  group: CriteriaGroup;
  isRoot: boolean;
  onAdd: (child: CriteriaNode) => void;
  onClear: () => void;
  onRemove: () => void;
}) {
  const label = group.label;
  return (
    <Group gap={4} ml="auto">
      {NEW_RULES.map(({ label: ruleLabel, Icon, create }) => (
        <Button
          key={ruleLabel}
          size="compact-xs"
          variant="light"
          leftSection={<Icon size={12} />}
          onClick={() => onAdd(create())}
        >
          {ruleLabel}
        </Button>
      ))}
      {canAddGroup(label) && (
        <Button
          size="compact-xs"
          variant="light"
          color="gray"
          leftSection={<IconFolderPlus size={12} />}
          onClick={() => onAdd(newGroup(childLabel(label, group.children.length)))}
        >
          Group
        </Button>
      )}
      {isRoot ? (
        <Button
          size="compact-xs"
          variant="subtle"
          color="red"
          onClick={onClear}
          disabled={!group.children.length}
        >
          Clear
        </Button>
      ) : (
        <Tooltip label="Remove group">
          <ActionIcon
            variant="subtle"
            color="gray"
            size="sm"
            aria-label={`Remove group ${label}`}
            onClick={onRemove}
          >
            <IconTrash size={14} />
          </ActionIcon>
        </Tooltip>
      )}
    </Group>
  );
}

/** A child of a group at `path`: a nested group or the row of its kind of rule, labelled `label`. */
function GroupChild({
  root,
  node,
  path,
  label,
  defs,
  onChange,
  readOnly,
}: Omit<GroupNodeProps, 'group'> & { node: CriteriaNode; label: string }) {
  if (isGroup(node))
    return (
      <GroupNode root={root} group={node} path={path} defs={defs} onChange={onChange} readOnly={readOnly} />
    );
  const common = {
    defs,
    readOnly,
    label,
    onRemove: () => onChange(removeNode(root, path)),
  };
  const changeChild = (next: CriteriaNode) => onChange(updateNode(root, path, () => next));
  if (node.type === 'attribute') return <AttributeRuleRow rule={node} onChange={changeChild} {...common} />;
  if (node.type === 'audience') return <AudienceRuleRow rule={node} onChange={changeChild} {...common} />;
  return <EventRuleRow rule={node} onChange={changeChild} {...common} />;
}

/** One group of the tree: predicate, story, its children, and the spec §4 actions. */
export function GroupNode({ root, group, path, defs, onChange, readOnly }: GroupNodeProps) {
  const isRoot = path.length === 0;
  const label = group.label;
  const add = (child: CriteriaNode) => onChange(appendChild(root, path, child));
  const change = (node: CriteriaNode) => onChange(updateNode(root, path, () => node));
  const handleClear = () =>
    modals.openConfirmModal({
      title: 'Clear all rules?',
      children: 'Every group and rule of these criteria is removed.',
      labels: { confirm: 'Clear', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => onChange({ label: '1', predicate: 'and', children: [] }),
    });

  return (
    <Box
      data-group={label}
      style={{
        borderLeft: `3px solid var(--mantine-color-${group.predicate === 'not' ? 'red' : group.predicate === 'or' ? 'grape' : 'blue'}-4)`,
        paddingLeft: 10,
      }}
    >
      <Stack gap={6}>
        <Group gap={6} wrap="wrap">
          <Badge variant="light" radius="sm" aria-label={`Group ${label}`}>
            {label}
          </Badge>
          <SegmentedControl
            size="xs"
            aria-label={`Predicate of group ${label}`}
            disabled={readOnly}
            data={[
              { value: 'and', label: 'AND' },
              { value: 'or', label: 'OR' },
              { value: 'not', label: 'NOT' },
            ]}
            value={group.predicate}
            onChange={(predicate) => change({ ...group, predicate: predicate as CriteriaGroup['predicate'] })}
          />
          <TextInput
            size="xs"
            w={200}
            placeholder="Story (a note)"
            aria-label={`Story of group ${label}`}
            value={group.story ?? ''}
            disabled={readOnly}
            onChange={(event) => {
              const story = event.currentTarget.value;
              const { story: _old, ...rest } = group;
              change(story ? { ...rest, story } : rest);
            }}
          />
          {!readOnly && (
            <GroupActions
              group={group}
              isRoot={isRoot}
              onAdd={add}
              onClear={handleClear}
              onRemove={() => onChange(removeNode(root, path))}
            />
          )}
        </Group>
        {group.children.map((child, index) => (
          <GroupChild
            key={index}
            root={root}
            node={child}
            path={[...path, index]}
            label={childLabel(label, index)}
            defs={defs}
            onChange={onChange}
            readOnly={readOnly}
          />
        ))}
      </Stack>
    </Box>
  );
}
