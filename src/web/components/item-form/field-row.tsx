import type { ReactNode } from 'react';
import { Box, Grid, Group, Text } from '@mantine/core';
import type { FieldDef } from '@shared/schemas/types';
import { clampLabelWidth } from '@shared/validation/label-width';
import { isMarkedRequired } from '@shared/validation/name-slug';

/**
 * A field's label beside its input (spec §5: label width 1 to 12 grid columns, default 5). At 12 the
 * input goes under its label; on narrow screens every input does.
 */
export function FieldRow({
  field,
  inputId,
  editing,
  status,
  children,
}: {
  field: FieldDef;
  inputId?: string;
  /** In edit mode labels line up with inputs and fields the user must fill are starred. */
  editing: boolean;
  /** Beside the label: a localised field's state in the locale shown. */
  status?: ReactNode;
  children: ReactNode;
}) {
  const labelWidth = clampLabelWidth(field.labelWidth);
  const stacked = labelWidth === 12;
  return (
    <Box data-field={field.key} py={4}>
      <Grid gap={{ base: 4, sm: 'md' }} align="flex-start">
        <Grid.Col span={{ base: 12, sm: labelWidth }} data-label-width={labelWidth}>
          <Group gap={6} pt={stacked || !editing ? 0 : { base: 0, sm: 6 }} wrap={status ? 'wrap' : 'nowrap'}>
            <Text
              component="label"
              htmlFor={editing ? inputId : undefined}
              size="sm"
              fw={500}
              c={editing ? undefined : 'dimmed'}
            >
              {field.label}
              {editing && isMarkedRequired(field) && (
                <Text span c="red" ml={3} aria-hidden>
                  *
                </Text>
              )}
            </Text>
            {status}
          </Group>
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: stacked ? 12 : 12 - labelWidth }} style={{ minWidth: 0 }}>
          {children}
        </Grid.Col>
      </Grid>
    </Box>
  );
}
