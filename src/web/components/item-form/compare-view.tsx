import { useState } from 'react';
import { Badge, Box, Grid, Group, NativeSelect, Paper, Stack, Switch, Text } from '@mantine/core';
import { localeChanges, versionLocales } from '@shared/locales/changes';
import { isLocalized } from '@shared/locales/locales';
import { blockChanges, changedFields } from '@shared/schemas/compare';
import { isFieldVisible } from '@shared/schemas/display-if';
import type { FieldDef, SchemaType } from '@shared/schemas/types';
import { FieldEnvironmentContext, useFieldEnvironment } from '../fields/field-environment';
import { FieldInput } from '../fields/field-input';
import type { ItemData } from '../fields/types';
import { LocaleChangeChips } from './locale-change-chips';
import { localeScope, localeStatus, LocaleStatusBadge, type FormLocales } from './item-locales';

interface Side {
  label: string;
  data: ItemData;
}

const ignore = () => {};

/** The locale both versions are shown in, marking the locales in which they differ. */
function CompareLocaleBar({
  tags,
  differing,
  shared,
  locale,
  onLocaleChange,
}: {
  tags: readonly string[];
  differing: readonly string[];
  shared: boolean;
  locale: string;
  onLocaleChange: (tag: string) => void;
}) {
  return (
    <Group gap="md" align="flex-end" wrap="wrap" mb="sm" data-testid="compare-locale-bar">
      <NativeSelect
        label="Locale"
        size="sm"
        value={locale}
        onChange={(event) => onLocaleChange(event.currentTarget.value)}
        data={tags.map((tag) => ({
          value: tag,
          label: differing.includes(tag) ? `${tag} (differs)` : tag,
        }))}
      />
      <Group gap={6} mb={6}>
        <Text size="sm" c="dimmed">
          {differing.length === 0 && !shared ? 'No locale differs' : 'Differs in'}
        </Text>
        <LocaleChangeChips changes={{ locales: [...differing], shared }} label="Locales that differ" />
      </Group>
    </Group>
  );
}

/**
 * The locale a comparison shows, when the schema has localised fields: each side's data with every
 * localised field holding that locale's own value, and what tells the locales apart.
 */
function useCompareLocale(
  schema: SchemaType,
  before: ItemData,
  after: ItemData,
  options: Pick<CompareLocaleOptions, 'locales' | 'initialLocale' | 'onLocaleChange'>,
) {
  const { locales } = options;
  const schemaLocales = locales && schema.locales;
  const tags = schemaLocales ? versionLocales(schemaLocales, [before, after]) : [];
  const [chosen, setChosen] = useState(options.initialLocale);
  if (!locales || !schemaLocales) return undefined;
  const locale = chosen && tags.includes(chosen) ? chosen : locales.default;
  const changes = localeChanges({ fields: schema.fields, locales: schemaLocales }, before, after);
  const inDefault = locale === locales.default;
  return {
    locales,
    locale,
    inDefault,
    scope: (data: ItemData) => (inDefault ? data : localeScope(schema, data, locale)),
    bar: {
      tags,
      differing: changes.locales,
      shared: changes.shared,
      locale,
      onLocaleChange: (tag: string) => {
        setChosen(tag);
        options.onLocaleChange?.(tag);
      },
    },
  };
}

interface CompareLocaleOptions {
  /** The workspace's locales: localised fields are then compared in one locale at a time. */
  locales?: FormLocales;
  /** The locale shown first (the one the editor shows); the default locale when missing or unknown. */
  initialLocale?: string;
  onLocaleChange?: (tag: string) => void;
}

/** Under a changed blocks field: which blocks were added, changed, removed or reordered. */
function BlockChangeList({ field, sides }: { field: FieldDef; sides: readonly { scope: ItemData }[] }) {
  const { schema } = useFieldEnvironment();
  const changes = blockChanges(sides[0].scope[field.key], sides[1].scope[field.key], schema.blockTypes);
  if (changes.length === 0) return null;
  return (
    <Group gap={4} mt={4} aria-label={`Changes to ${field.label}`} data-block-changes>
      {changes.map((change) => (
        <Badge key={change} size="sm" variant="light" color="orange" tt="none">
          {change}
        </Badge>
      ))}
    </Group>
  );
}

/** One field of both versions; a localised one in a locale other than the default says where it reads from. */
function CompareFieldRow({
  field,
  sides,
  isChanged,
  locale,
}: {
  field: FieldDef;
  sides: readonly (Side & { scope: ItemData })[];
  isChanged: boolean;
  locale: { tag: string; locales: FormLocales } | undefined;
}) {
  return (
    <Box
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
              {locale ? `${field.label} (${locale.tag})` : field.label}
            </Text>
            {isChanged && (
              <Badge size="xs" color="orange" variant="light">
                Changed
              </Badge>
            )}
          </Group>
        </Grid.Col>
        {sides.map((side, index) => (
          <Grid.Col
            key={side.label}
            span={{ base: 12, sm: 4.5 }}
            style={{ minWidth: 0 }}
            data-side={index === 0 ? 'before' : 'after'}
          >
            <Text size="xs" c="dimmed" hiddenFrom="sm">
              {side.label}
            </Text>
            {locale && (
              <LocaleStatusBadge status={localeStatus(side.data, field.key, locale.tag, locale.locales)} />
            )}
            <FieldInput field={field} scope={side.scope} onPatch={ignore} readOnly errors={{}} />
            {index === 1 && isChanged && field.type === 'blocks' && (
              <BlockChangeList field={field} sides={sides} />
            )}
          </Grid.Col>
        ))}
      </Grid>
    </Box>
  );
}

/**
 * Compare mode (spec §2): two versions side by side; fields whose values differ are marked. Each side
 * has half the room: long values (blocks) are summed up.
 */
export function CompareView({
  schema,
  fields,
  before,
  after,
  ...localeOptions
}: {
  schema: SchemaType;
  fields: FieldDef[];
  before: Side;
  after: Side;
} & CompareLocaleOptions) {
  const [onlyChanged, setOnlyChanged] = useState(false);
  const inLocale = useCompareLocale(schema, before.data, after.data, localeOptions);
  const sides = [before, after].map((side) => ({
    ...side,
    scope: inLocale ? inLocale.scope(side.data) : side.data,
  }));
  const changed = new Set(changedFields(schema, sides[0].scope, sides[1].scope));
  const shown = fields.filter(
    (field) =>
      (isFieldVisible(field, before.data) || isFieldVisible(field, after.data)) &&
      (!onlyChanged || changed.has(field.key)),
  );
  const environment = useFieldEnvironment();
  const localeOf = (field: FieldDef) =>
    inLocale && !inLocale.inDefault && isLocalized(field)
      ? { tag: inLocale.locale, locales: inLocale.locales }
      : undefined;
  return (
    <FieldEnvironmentContext.Provider value={{ ...environment, compactDisplay: true }}>
      <Paper p={{ base: 'sm', sm: 'lg' }} radius="md">
        {inLocale && <CompareLocaleBar {...inLocale.bar} />}
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
          {shown.map((field) => (
            <CompareFieldRow
              key={field.key}
              field={field}
              sides={sides}
              isChanged={changed.has(field.key)}
              locale={localeOf(field)}
            />
          ))}
        </Stack>
      </Paper>
    </FieldEnvironmentContext.Provider>
  );
}
