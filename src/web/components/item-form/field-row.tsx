import type { ReactNode } from 'react';
import { Badge, Box, Grid, Group, Text } from '@mantine/core';
import type { FieldDef } from '@shared/schemas/types';
import { clampLabelWidth } from '@shared/validation/label-width';

/**
 * A field's label beside its input (spec §5: label width 1 to 12 grid columns, default 5). At 12 the
 * input goes under its label; on narrow screens every input does.
 */
export function FieldRow({
  field,
  inputId,
  showRequired,
  changed,
  children,
}: {
  field: FieldDef;
  inputId?: string;
  showRequired: boolean;
  changed?: boolean;
  children: ReactNode;
}) {
  const labelWidth = clampLabelWidth(field.labelWidth);
  const stacked = labelWidth === 12;
  return (
    <Box data-field={field.key} data-changed={changed || undefined} py={4}>
      <Grid gap={{ base: 4, sm: 'md' }} align="flex-start">
        <Grid.Col span={{ base: 12, sm: labelWidth }} data-label-width={labelWidth}>
          <Group gap={6} pt={stacked ? 0 : { base: 0, sm: 6 }} wrap="nowrap">
            <Text component="label" htmlFor={inputId} size="sm" fw={500}>
              {field.label}
              {showRequired && field.required && (
                <Text span c="red" ml={3} aria-hidden>
                  *
                </Text>
              )}
            </Text>
            {changed && (
              <Badge size="xs" color="orange" variant="light">
                Changed
              </Badge>
            )}
          </Group>
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: stacked ? 12 : 12 - labelWidth }} style={{ minWidth: 0 }}>
          {children}
        </Grid.Col>
      </Grid>
    </Box>
  );
}
