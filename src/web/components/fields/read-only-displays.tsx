import { Badge, Box, Group, Image, List, Paper, Stack, Text, Textarea, Typography } from '@mantine/core';
import { IconFile, IconMapPin, IconPlugConnected } from '@tabler/icons-react';
import type { FieldProps } from './types';
import { countryName } from '@shared/geo/countries';
import type { CriteriaNodeValue } from '@shared/schemas/value-shapes';
import classes from './html-preview.module.css';
import { safeHtml } from './safe-html';
import { SizeDisplay } from './size-display';
import { INPUT_ORDER, ViewValue } from './view-value';

const asObject = (value: unknown): Record<string, unknown> | null =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** Spec §8 placeholder of a file field without a file. */
export const FILE_NOT_SELECTED = 'File not selected';

function HtmlPreview({ html, label }: { html: string; label: string }) {
  return (
    <Paper p="md" radius="md" aria-label={label} style={{ maxHeight: 480, overflow: 'auto' }}>
      <Typography>
        <div className={classes.html} dangerouslySetInnerHTML={{ __html: safeHtml(html) }} />
      </Typography>
    </Paper>
  );
}

/**
 * Rich text: the stored HTML, cleaned, in view mode. Where no rich-text editor is plugged in
 * through `fieldEditors`, edit mode offers the HTML source so the field can be filled.
 */
export function RichTextDisplay({ field, value, onChange, readOnly, error, inputId }: FieldProps) {
  const html = text(value);
  if (!readOnly)
    return (
      <Stack gap={6}>
        <Textarea
          id={inputId}
          aria-label={field.label}
          value={html}
          autosize
          minRows={6}
          maxRows={20}
          error={error}
          inputWrapperOrder={INPUT_ORDER}
          description="HTML"
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
          onChange={(event) => onChange(event.currentTarget.value)}
        />
        {html && <HtmlPreview html={html} label={`${field.label} preview`} />}
      </Stack>
    );
  return html ? <HtmlPreview html={html} label={field.label} /> : <ViewValue />;
}

/** Email template (GrapesJS storage, spec §3): its combined markup as a preview. */
export function EmailTemplateDisplay({ field, value }: FieldProps) {
  const template = asObject(value);
  const markup = text(template?.combinedMarkup) || text(template?.['gjs-nl-html']);
  if (!markup) return <ViewValue>{template ? 'Template has no content yet' : ''}</ViewValue>;
  return <HtmlPreview html={markup} label={field.label} />;
}

type CriteriaGroup = Extract<CriteriaNodeValue, { children: CriteriaNodeValue[] }>;
const isGroup = (node: CriteriaNodeValue): node is CriteriaGroup =>
  Array.isArray((node as { children?: unknown }).children);

function CriteriaNode({ node }: { node: CriteriaNodeValue }) {
  if (isGroup(node)) {
    return (
      <Box>
        <Group gap={6}>
          <Badge size="sm" variant="light">
            {node.label}
          </Badge>
          <Text size="sm" fw={600} tt="uppercase">
            {node.predicate}
          </Text>
          {node.story && (
            <Text size="xs" c="dimmed">
              {node.story}
            </Text>
          )}
        </Group>
        {node.children.length > 0 && (
          <List size="sm" ml="md" mt={4} spacing={4} listStyleType="none">
            {node.children.map((child, index) => (
              <List.Item key={index}>
                <CriteriaNode node={child} />
              </List.Item>
            ))}
          </List>
        )}
      </Box>
    );
  }
  const predicate = asObject(node.predicate);
  const target = asObject(predicate?.attribute) ?? asObject(predicate?.remote);
  const label =
    node.type === 'event'
      ? text(asObject(node.event)?.label) || 'Event not selected'
      : text(target?.label) ||
        (node.type === 'attribute' ? 'Attribute not selected' : 'Audience not selected');
  return (
    <Text size="sm">
      <Text span c="dimmed">
        {node.type}:
      </Text>{' '}
      {label} {text(node.operator)} {node.value === undefined ? '' : JSON.stringify(node.value)}
    </Text>
  );
}

/** Criteria tree (spec §3): groups with their predicate and leaves, read-only until the rule builder. */
export function CriteriaDisplay({ value }: FieldProps) {
  const root = asObject(value) as CriteriaNodeValue | null;
  if (!root) return <ViewValue />;
  return (
    <Paper p="sm" radius="md">
      <CriteriaNode node={root} />
    </Paper>
  );
}

/** File (spec §3): thumbnail for images, name, size (spec §5 size display) and type. */
export function FileDisplay({ value }: FieldProps) {
  const file = asObject(value);
  if (!file)
    return (
      <Text size="sm" c="dimmed">
        {FILE_NOT_SELECTED}
      </Text>
    );
  const isImage = text(file.contentType).startsWith('image/');
  return (
    <Paper p="xs" radius="md" maw={420}>
      <Group gap="sm" wrap="nowrap" align="flex-start">
        {isImage && text(file.publicUrl) ? (
          <Image src={text(file.publicUrl)} alt={text(file.name)} w={96} h={72} radius="sm" fit="cover" />
        ) : (
          <IconFile size={32} stroke={1.4} />
        )}
        <div style={{ minWidth: 0 }}>
          <Text size="sm" fw={500} truncate>
            {text(file.name) || 'Unnamed file'}
          </Text>
          <Text size="xs" c="dimmed">
            {typeof file.size === 'number' ? <SizeDisplay bytes={file.size} size="xs" c="dimmed" /> : null}
            {text(file.contentType) && ` · ${text(file.contentType)}`}
          </Text>
        </div>
      </Group>
    </Paper>
  );
}

/** Address (spec §3): the formatted lines and coordinates. */
export function AddressDisplay({ value }: FieldProps) {
  const address = asObject(value);
  if (!address) return <ViewValue />;
  const street = [text(address.streetNumber), text(address.streetAddress)].filter(Boolean).join(' ');
  const city = [text(address.city), text(address.state), text(address.postal_code)]
    .filter(Boolean)
    .join(', ');
  const country = text(address.country);
  const lines = [
    street && (text(address.unit) ? `${street}, ${text(address.unit)}` : street),
    city,
    countryName(country) ?? country,
  ].filter(Boolean);
  const shown = lines.length ? lines : [text(address.rawAddress)].filter(Boolean);
  const hasPoint = typeof address.latitude === 'number' && typeof address.longitude === 'number';
  return (
    <Group gap="xs" align="flex-start" wrap="nowrap">
      <IconMapPin size={18} stroke={1.5} style={{ marginTop: 2, flexShrink: 0 }} />
      <div>
        {shown.length ? (
          shown.map((line) => (
            <Text size="sm" key={line}>
              {line}
            </Text>
          ))
        ) : (
          <ViewValue />
        )}
        {hasPoint && (
          <Text size="xs" c="dimmed">
            {(address.latitude as number).toFixed(5)}, {(address.longitude as number).toFixed(5)}
          </Text>
        )}
      </div>
    </Group>
  );
}

/** Service connection (spec §3): provider, status and 'Connected as'. */
export function ServiceConnectionDisplay({ value }: FieldProps) {
  const connection = asObject(value);
  if (!connection)
    return (
      <Text size="sm" c="dimmed">
        Not connected
      </Text>
    );
  const profile = asObject(connection.profile);
  const who = text(profile?.name) || text(profile?.email) || text(profile?.id);
  const status = text(connection.serviceStatus);
  return (
    <Group gap="sm" align="flex-start" wrap="nowrap">
      <IconPlugConnected size={18} stroke={1.5} style={{ marginTop: 2 }} />
      <div>
        <Group gap={6}>
          <Text size="sm" fw={500}>
            {text(connection.provider)}
          </Text>
          {status && (
            <Badge
              size="sm"
              variant="light"
              color={status === 'connected' ? 'teal' : status === 'warning' ? 'orange' : 'gray'}
            >
              {status}
            </Badge>
          )}
        </Group>
        {who && <Text size="sm">Connected as {who}</Text>}
      </div>
    </Group>
  );
}

/** Social interests (spec §3): name, id and type of each. */
export function SocialInterestsDisplay({ value }: FieldProps) {
  const interests = Array.isArray(value) ? value.map(asObject).filter((entry) => entry !== null) : [];
  if (interests.length === 0) return <ViewValue />;
  return (
    <Group gap={6}>
      {interests.map((interest) => (
        <Badge key={String(interest.id)} variant="light" tt="none">
          {text(interest.name) || String(interest.id)}
          {text(interest.type) && ` · ${text(interest.type)}`}
        </Badge>
      ))}
    </Group>
  );
}
