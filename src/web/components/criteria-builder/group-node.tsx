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
            <Group gap={4} ml="auto">
              <Button
                size="compact-xs"
                variant="light"
                leftSection={<IconUser size={12} />}
                onClick={() => add(newAttributeRule())}
              >
                Attribute rule
              </Button>
              <Button
                size="compact-xs"
                variant="light"
                leftSection={<IconActivity size={12} />}
                onClick={() => add(newEventRule())}
              >
                Behavior rule
              </Button>
              <Button
                size="compact-xs"
                variant="light"
                leftSection={<IconUsersGroup size={12} />}
                onClick={() => add(newAudienceRule())}
              >
                Audience rule
              </Button>
              {canAddGroup(label) && (
                <Button
                  size="compact-xs"
                  variant="light"
                  color="gray"
                  leftSection={<IconFolderPlus size={12} />}
                  onClick={() => add(newGroup(childLabel(label, group.children.length)))}
                >
                  Group
                </Button>
              )}
              {isRoot ? (
                <Button
                  size="compact-xs"
                  variant="subtle"
                  color="red"
                  onClick={handleClear}
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
                    onClick={() => onChange(removeNode(root, path))}
                  >
                    <IconTrash size={14} />
                  </ActionIcon>
                </Tooltip>
              )}
            </Group>
          )}
        </Group>
        {group.children.map((child, index) => {
          const childPath = [...path, index];
          const childLabelText = childLabel(label, index);
          const common = {
            defs,
            readOnly,
            label: childLabelText,
            onRemove: () => onChange(removeNode(root, childPath)),
          };
          const changeChild = (node: CriteriaNode) => onChange(updateNode(root, childPath, () => node));
          if (isGroup(child)) {
            return (
              <GroupNode
                key={index}
                root={root}
                group={child}
                path={childPath}
                defs={defs}
                onChange={onChange}
                readOnly={readOnly}
              />
            );
          }
          if (child.type === 'attribute')
            return <AttributeRuleRow key={index} rule={child} onChange={changeChild} {...common} />;
          if (child.type === 'audience')
            return <AudienceRuleRow key={index} rule={child} onChange={changeChild} {...common} />;
          return <EventRuleRow key={index} rule={child} onChange={changeChild} {...common} />;
        })}
      </Stack>
    </Box>
  );
}
