import { useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  FileInput,
  Group,
  Modal,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { IconEye, IconInfoCircle, IconUpload } from '@tabler/icons-react';
import type {
  ColumnMapping,
  ImportMappingInput,
  InferredType,
  PreviewAnswer,
  PreviewColumn,
} from '@shared/api/customer-imports';
import { isDataKey } from '@shared/text/slug';
import { BatchErrors, BatchProgress } from '@web/components/batch-progress';
import {
  useImportCustomerData,
  usePreviewImport,
  useRunningBatch,
  type ImportKind,
} from '../api/import-customer-data';

const HINTS: Record<ImportKind, string> = {
  profiles:
    'CSV with a header row: id, then one column per attribute. Or NDJSON: {"id", "attributes": {…}} per line.',
  'customer-events':
    'CSV with a header row: profileId, event, at, then one column per property. Or NDJSON: {"profileId", "event", "at", "properties": {…}}.',
};

/** What the preview says columns go to: a profile's attributes, or an event's properties. */
const PREVIEW_TEXT: Record<ImportKind, string> = {
  profiles: 'Each column goes to the attribute with its key; new attributes are created with the import.',
  'customer-events':
    'Each column goes to the event property with its key; properties an event lacks are added to it with the import.',
};

const TYPES: { value: InferredType; label: string }[] = [
  { value: 'string', label: 'Text' },
  { value: 'number', label: 'Number' },
  { value: 'boolean', label: 'Yes / no' },
  { value: 'date', label: 'Date' },
  { value: 'array', label: 'List of text' },
];

/** What the user chose for one column: the proposal as the preview made it, then changed. */
interface ColumnChoice {
  action: 'map' | 'skip';
  key: string;
  type: InferredType;
  label: string;
}

const choiceOf = (column: PreviewColumn): ColumnChoice => ({
  action: 'map',
  key: column.key,
  type: column.type === 'categorical' ? 'string' : column.type,
  label: column.label,
});

/** Why a column's key differs from its name: information about the mapping, nothing to fix. */
function KeyChangeNote({ text }: { text: string }) {
  return (
    <Group gap={4} wrap="nowrap" align="flex-start" role="note" data-testid="key-change">
      <IconInfoCircle size={14} aria-hidden style={{ flex: 'none', marginTop: 1 }} />
      <Text size="xs" c="dimmed">
        {text}
      </Text>
    </Group>
  );
}

/** The mapping the choices make, for the import request. */
function mappingOf(
  kind: ImportKind,
  preview: PreviewAnswer,
  choices: Record<string, ColumnChoice>,
  createEvents: Record<string, boolean>,
  existingKeys: ReadonlySet<string>,
): ImportMappingInput {
  const columns: Record<string, ColumnMapping> = {};
  for (const column of preview.columns) {
    // A row's id (or profileId, event, at) under another name in the file.
    if (column.own && column.key !== column.column) columns[column.column] = { key: column.key };
    if (column.own) continue;
    const choice = choices[column.column];
    if (choice.action === 'skip') {
      columns[column.column] = 'skip';
    } else if (kind === 'profiles' && !existingKeys.has(choice.key)) {
      columns[column.column] = {
        key: choice.key,
        type: choice.type,
        label: choice.label,
        ...(choice.type === 'array' ? { options: column.options } : {}),
      };
    } else if (choice.key !== column.column) {
      columns[column.column] = { key: choice.key };
    }
  }
  const events = Object.fromEntries(
    Object.entries(preview.mapping.events).filter(([key]) => createEvents[key] !== false),
  );
  return { columns, events };
}

function ColumnRow({
  kind,
  column,
  choice,
  isExisting,
  onChange,
}: {
  kind: ImportKind;
  column: PreviewColumn;
  choice: ColumnChoice;
  isExisting: boolean;
  onChange: (next: ColumnChoice) => void;
}) {
  const keyError =
    choice.key && !isExisting && !isDataKey(choice.key)
      ? 'Letters, digits, _ and -, starting with a letter'
      : null;
  const isNew = choice.action === 'map' && !isExisting;
  return (
    <Table.Tr data-column={column.column}>
      <Table.Td valign="top">
        <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
          {column.column}
        </Text>
        <Text size="xs" c="dimmed" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
          {column.samples.length ? column.samples.join(' · ') : 'No values in the first rows'}
        </Text>
      </Table.Td>
      <Table.Td valign="top">
        <Stack gap={6}>
          <Group gap="xs" wrap="nowrap">
            <Checkbox
              aria-label={`Import column ${column.column}`}
              checked={choice.action === 'map'}
              onChange={(event) =>
                onChange({ ...choice, action: event.currentTarget.checked ? 'map' : 'skip' })
              }
            />
            <TextInput
              aria-label={`Key for ${column.column}`}
              size="xs"
              value={choice.key}
              disabled={choice.action === 'skip'}
              error={keyError}
              onChange={(event) => onChange({ ...choice, key: event.currentTarget.value })}
              style={{ flex: 1 }}
            />
            {choice.action === 'skip' ? (
              <Badge color="gray" variant="light">
                skipped
              </Badge>
            ) : isNew ? (
              <Badge color="blue" variant="light">
                new
              </Badge>
            ) : (
              <Badge color="teal" variant="light">
                {column.match === 'label' && choice.key === column.key ? 'by label' : 'matched'}
              </Badge>
            )}
          </Group>
          {isNew && kind === 'profiles' && (
            <Group gap="xs" wrap="nowrap">
              <TextInput
                aria-label={`Name for ${column.column}`}
                size="xs"
                value={choice.label}
                onChange={(event) => onChange({ ...choice, label: event.currentTarget.value })}
                style={{ flex: 1 }}
              />
              <Select
                aria-label={`Type of ${column.column}`}
                size="xs"
                w={130}
                data={TYPES}
                value={choice.type}
                allowDeselect={false}
                onChange={(value) => value && onChange({ ...choice, type: value as InferredType })}
              />
            </Group>
          )}
          {column.keyChange && choice.action === 'map' && choice.key === column.key && (
            <KeyChangeNote text={column.keyChange} />
          )}
        </Stack>
      </Table.Td>
    </Table.Tr>
  );
}

/** The preview: each column's proposal, to confirm, rename, retype or skip; events to create. */
export function MappingStep({
  kind,
  preview,
  choices,
  setChoices,
  createEvents,
  setCreateEvents,
  existingKeys,
}: {
  kind: ImportKind;
  preview: PreviewAnswer;
  choices: Record<string, ColumnChoice>;
  setChoices: (next: Record<string, ColumnChoice>) => void;
  createEvents: Record<string, boolean>;
  setCreateEvents: (next: Record<string, boolean>) => void;
  existingKeys: ReadonlySet<string>;
}) {
  const mapped = preview.columns.filter((column) => !column.own);
  const renamedOwn = preview.columns.filter((column) => column.own && column.key !== column.column);
  const toCreate = preview.events.filter((event) => preview.mapping.events[event.key]);
  return (
    <Stack gap="xs" data-testid="import-preview">
      <Text size="sm">
        {preview.rowsRead.toLocaleString('en')} rows read. {PREVIEW_TEXT[kind]} Nothing is written until you
        import.
      </Text>
      {renamedOwn.map((column) => (
        <Text size="sm" key={column.column} data-testid="own-column">
          <b>{column.column}</b> is {column.keyChange?.replace(/^Read/, 'read')}.
        </Text>
      ))}
      <Table withTableBorder verticalSpacing={6} aria-label="Columns">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w="38%">Column</Table.Th>
            <Table.Th>{kind === 'profiles' ? 'Attribute' : 'Property'}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {mapped.map((column) => (
            <ColumnRow
              key={column.column}
              kind={kind}
              column={column}
              choice={choices[column.column]}
              isExisting={existingKeys.has(choices[column.column].key)}
              onChange={(next) => setChoices({ ...choices, [column.column]: next })}
            />
          ))}
        </Table.Tbody>
      </Table>
      {toCreate.length > 0 && (
        <Stack gap={4} data-testid="import-events">
          {toCreate.map((event) => (
            <Checkbox
              key={event.key}
              size="xs"
              checked={createEvents[event.key] !== false}
              onChange={(e) => setCreateEvents({ ...createEvents, [event.key]: e.currentTarget.checked })}
              label={
                event.known
                  ? `Give event "${event.key}" the properties ${event.missing.map((p) => p.name).join(', ')}`
                  : `Create event "${event.key}" (${event.rows.toLocaleString('en')} rows)${event.missing.length ? ` with ${event.missing.map((p) => p.name).join(', ')}` : ''}`
              }
            />
          ))}
        </Stack>
      )}
      {preview.errors.length > 0 && (
        <Text size="xs" c="orange.8">
          Rows that cannot be read: line {preview.errors.map((error) => error.line).join(', ')}
        </Text>
      )}
    </Stack>
  );
}

/** What to import and the file. */
function FileStep(props: {
  kind: ImportKind;
  file: File | null;
  onKind: (kind: ImportKind) => void;
  onFile: (file: File | null) => void;
}) {
  return (
    <>
      <SegmentedControl
        data={[
          { value: 'profiles', label: 'Profiles' },
          { value: 'customer-events', label: 'Events' },
        ]}
        value={props.kind}
        onChange={(value) => props.onKind(value as ImportKind)}
        aria-label="What to import"
      />
      <Text size="sm" c="dimmed">
        {HINTS[props.kind]}
      </Text>
      <FileInput
        label="File"
        placeholder="Choose a .csv or .ndjson file"
        accept=".csv,.ndjson,.jsonl,text/csv,application/x-ndjson"
        value={props.file}
        onChange={props.onFile}
        clearable
      />
    </>
  );
}

function DialogActions(props: {
  isDone: boolean;
  onClose: () => void;
  step: 'preview' | 'import';
  disabled: boolean;
  loading: boolean;
  onNext: () => void;
}) {
  const Icon = props.step === 'preview' ? IconEye : IconUpload;
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={props.onClose}>
        {props.isDone ? 'Done' : 'Cancel'}
      </Button>
      <Button
        leftSection={<Icon size={16} />}
        disabled={props.disabled}
        loading={props.loading}
        onClick={props.onNext}
      >
        {props.step === 'preview' ? 'Preview' : 'Import'}
      </Button>
    </Group>
  );
}

/**
 * Choose a CSV or NDJSON file, preview it (each column's attribute, matched or new, with its type),
 * change what needs changing, import it and watch its batch: progress, counts and grouped row errors.
 */
export function ImportDialog({ ws, opened, onClose }: { ws: string; opened: boolean; onClose: () => void }) {
  const [kind, setKind] = useState<ImportKind>('profiles');
  const [file, setFile] = useState<File | null>(null);
  const [choices, setChoices] = useState<Record<string, ColumnChoice>>({});
  const [createEvents, setCreateEvents] = useState<Record<string, boolean>>({});
  const previewing = usePreviewImport(ws);
  const importing = useImportCustomerData(ws);
  const running = useRunningBatch(ws, importing.isPending);
  const batch = importing.data ?? running.data ?? null;
  const preview = previewing.data;
  // Keys the workspace has: the matched columns' keys (a new key is created with the import).
  const existingKeys = new Set(
    preview?.columns.filter((c) => c.match === 'key' || c.match === 'label').map((c) => c.key),
  );
  const reset = () => {
    previewing.reset();
    importing.reset();
    setChoices({});
    setCreateEvents({});
  };
  const handleClose = () => {
    reset();
    setFile(null);
    onClose();
  };
  const startPreview = () => {
    if (!file) return;
    importing.reset();
    previewing.mutate(
      { kind, file },
      {
        onSuccess: (answer) =>
          setChoices(Object.fromEntries(answer.columns.map((column) => [column.column, choiceOf(column)]))),
      },
    );
  };
  const hasBadKey = Object.values(choices).some(
    (choice) => choice.action === 'map' && !existingKeys.has(choice.key) && !isDataKey(choice.key),
  );
  return (
    <Modal opened={opened} onClose={handleClose} title="Import customer data" size="xl">
      <Stack>
        <FileStep
          kind={kind}
          file={file}
          onKind={(value) => {
            setKind(value);
            reset();
          }}
          onFile={(next) => {
            setFile(next);
            reset();
          }}
        />
        {previewing.error && <Alert color="red">{previewing.error.message}</Alert>}
        {preview && !batch && (
          <MappingStep
            kind={kind}
            preview={preview}
            choices={choices}
            setChoices={setChoices}
            createEvents={createEvents}
            setCreateEvents={setCreateEvents}
            existingKeys={existingKeys}
          />
        )}
        {importing.error && <Alert color="red">{importing.error.message}</Alert>}
        {batch && (
          <Stack gap="xs" data-testid="import-batch">
            <BatchProgress batch={batch} />
            <BatchErrors ws={ws} batch={batch} />
          </Stack>
        )}
        <DialogActions
          isDone={importing.isSuccess}
          onClose={handleClose}
          step={!preview ? 'preview' : 'import'}
          disabled={!file || (!!preview && (hasBadKey || importing.isSuccess))}
          loading={previewing.isPending || importing.isPending}
          onNext={() => {
            if (!preview) startPreview();
            else if (file) {
              const mapping = mappingOf(kind, preview, choices, createEvents, existingKeys);
              importing.mutate({ kind, file, mapping });
            }
          }}
        />
      </Stack>
    </Modal>
  );
}
