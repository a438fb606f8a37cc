import { useState } from 'react';
import { Badge, Box, Grid, Group, Paper, Stack, Switch, Text } from '@mantine/core';
import { changedFields } from '@shared/schemas/compare';
import { isFieldVisible } from '@shared/schemas/display-if';
import type { FieldDef, SchemaType } from '@shared/schemas/types';
import { FieldInput } from '../fields/field-input';
import type { ItemData } from '../fields/types';

interface Side {
  label: string;
  data: ItemData;
}

const ignore = () => {};

/** Compare mode (spec §2): two versions side by side; fields whose values differ are marked. */
export function CompareView({
  schema,
  fields,
  before,
  after,
}: {
  schema: SchemaType;
  fields: FieldDef[];
  before: Side;
  after: Side;
}) {
  const [onlyChanged, setOnlyChanged] = useState(false);
  const changed = new Set(changedFields(schema, before.data, after.data));
  const shown = fields.filter(
    (field) =>
      (isFieldVisible(field, before.data) || isFieldVisible(field, after.data)) &&
      (!onlyChanged || changed.has(field.key)),
  );
  return (
    <Paper p={{ base: 'sm', sm: 'lg' }} radius="md">
      <Group justify="space-between" mb="sm">
        <Text size="sm" c="dimmed">
          {changed.size === 0
            ? 'No fields differ'
            : `${changed.size} field${changed.size === 1 ? '' : 's'} changed`}
        </Text>
        <Switch
          size="sm"
          label="Only changed fields"
          checked={onlyChanged}
          onChange={(event) => setOnlyChanged(event.currentTarget.checked)}
        />
      </Group>
      <Grid gap="md" visibleFrom="sm" mb={4} px="xs" style={{ borderLeft: '3px solid transparent' }}>
        <Grid.Col span={3} />
        <Grid.Col span={4.5}>
          <Text size="xs" fw={700} tt="uppercase" c="dimmed">
            {before.label}
          </Text>
        </Grid.Col>
        <Grid.Col span={4.5}>
          <Text size="xs" fw={700} tt="uppercase" c="dimmed">
            {after.label}
          </Text>
        </Grid.Col>
      </Grid>
      <Stack gap={6}>
        {shown.map((field) => {
          const isChanged = changed.has(field.key);
          return (
            <Box
              key={field.key}
              data-field={field.key}
              data-changed={isChanged || undefined}
              px="xs"
              py={6}
              style={{
                borderRadius: 'var(--mantine-radius-sm)',
                borderLeft: `3px solid ${isChanged ? 'var(--mantine-color-orange-5)' : 'transparent'}`,
                background: isChanged ? 'var(--mantine-color-orange-0)' : undefined,
              }}
            >
              <Grid gap="md" align="flex-start">
                <Grid.Col span={{ base: 12, sm: 3 }}>
                  <Group gap={6}>
                    <Text size="sm" fw={500}>
                      {field.label}
                    </Text>
                    {isChanged && (
                      <Badge size="xs" color="orange" variant="light">
                        Changed
                      </Badge>
                    )}
                  </Group>
                </Grid.Col>
                {[before, after].map((side) => (
                  <Grid.Col
                    key={side.label}
                    span={{ base: 12, sm: 4.5 }}
                    style={{ minWidth: 0 }}
                    data-side={side === before ? 'before' : 'after'}
                  >
                    <Text size="xs" c="dimmed" hiddenFrom="sm">
                      {side.label}
                    </Text>
                    <FieldInput field={field} scope={side.data} onPatch={ignore} readOnly errors={{}} />
                  </Grid.Col>
                ))}
              </Grid>
            </Box>
          );
        })}
      </Stack>
    </Paper>
  );
}
