import { useEffect, useState, type ReactNode } from 'react';
import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Loader,
  Paper,
  Progress,
  ScrollArea,
  Stack,
  Table,
  TagsInput,
  Text,
  TextInput,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  IconAlertTriangle,
  IconCircleCheck,
  IconInfoCircle,
  IconPhotoScan,
  IconSparkles,
  IconTrash,
} from '@tabler/icons-react';
import { imageResizeUrl } from '@shared/media/urls';
import { dedupeTags } from '@shared/validation/tags';
import { ImageCheckDialog } from './image-check-dialog';
import classes from './media.module.css';
import { sanityIssues, suggestedLabels } from './sanity-summary';
import { UploadDateInput } from './upload-date-input';
import { rowProblem, type EditableKey, type RowsAction, type UploadRow } from './upload-rows';

/** An issue badge shows its whole text on as many lines as it needs, never cut with an ellipsis. */
const WRAPPING_BADGE = {
  root: { maxWidth: '100%', height: 'auto', paddingBlock: 2 },
  label: { whiteSpace: 'normal', overflow: 'visible', textOverflow: 'clip', lineHeight: 1.3 },
} as const;

/** The upload table shows thumbnails at h=100 (spec §7). */
const TABLE_THUMB_HEIGHT = 100;

/** A picked file's own pixels, until the server's thumbnail exists. */
function useObjectUrl(file: File, enabled: boolean) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!enabled || typeof URL.createObjectURL !== 'function') return;
    const created = URL.createObjectURL(file);
    setUrl(created);
    return () => URL.revokeObjectURL(created);
  }, [file, enabled]);
  return url;
}

function ThumbCell({ row, workspaceId }: { row: UploadRow; workspaceId: string }) {
  const local = useObjectUrl(row.file, !row.record && row.status !== 'failed');
  const src = row.record
    ? imageResizeUrl(workspaceId, row.record.storageName, { h: TABLE_THUMB_HEIGHT })
    : local;
  return (
    <Stack gap={4} w="100%" maw={150}>
      <div className={classes.thumbCell}>
        {row.status === 'failed' ? (
          <IconAlertTriangle size={28} color="var(--mantine-color-red-6)" />
        ) : src ? (
          <img
            src={src}
            alt={row.altText || row.name}
            style={row.record ? undefined : { opacity: 0.55 }}
            data-testid={row.record ? 'upload-thumb' : undefined}
          />
        ) : null}
      </div>
      {(row.status === 'queued' || row.status === 'uploading') && (
        <Progress value={row.percent} size="sm" animated aria-label={`Upload of ${row.file.name}`} />
      )}
      <Text size="xs" c="dimmed" truncate title={row.file.name}>
        {row.file.name}
      </Text>
    </Stack>
  );
}

function IssuesCell({ row, onCheck }: { row: UploadRow; onCheck: () => void }) {
  if (row.status === 'failed') return null;
  if (!row.record || row.sanity === 'pending') {
    return (
      <Group gap={6} wrap="nowrap">
        <Loader size={12} />
        <Text size="xs" c="dimmed">
          {row.record ? 'Analysing…' : 'Waiting for upload'}
        </Text>
      </Group>
    );
  }
  const issues = sanityIssues(row.sanity);
  return (
    <Stack gap={4} align="flex-start">
      {row.sanity === null && (
        <Badge size="sm" variant="light" color="gray" tt="none">
          Analysis failed
        </Badge>
      )}
      {row.sanity !== null && issues.length === 0 && (
        <Badge size="sm" variant="light" color="teal" tt="none" leftSection={<IconCircleCheck size={12} />}>
          No issues
        </Badge>
      )}
      {issues.map((issue) =>
        issue.level === 'warning' ? (
          <Badge
            key={issue.text}
            size="sm"
            variant="light"
            color="orange"
            tt="none"
            leftSection={<IconAlertTriangle size={12} />}
            styles={WRAPPING_BADGE}
          >
            {issue.text}
          </Badge>
        ) : (
          <Group key={issue.text} gap={4} wrap="nowrap">
            <IconInfoCircle size={14} color="var(--mantine-color-dimmed)" style={{ flexShrink: 0 }} />
            <Text size="xs" c="dimmed">
              {issue.text}
            </Text>
          </Group>
        ),
      )}
      <Button size="compact-xs" variant="subtle" leftSection={<IconPhotoScan size={12} />} onClick={onCheck}>
        Image check
      </Button>
    </Stack>
  );
}

function StatusLine({ row }: { row: UploadRow }) {
  const problem = row.status === 'uploaded' ? rowProblem(row) : null;
  if (row.status === 'saved')
    return (
      <Badge size="sm" color="teal" variant="light" tt="none" leftSection={<IconCircleCheck size={12} />}>
        Saved
      </Badge>
    );
  if (row.status === 'saving')
    return (
      <Group gap={4}>
        <Loader size={12} />
        <Text size="xs" c="dimmed">
          Saving…
        </Text>
      </Group>
    );
  if (row.error)
    return (
      <Text size="xs" c="red" role="alert">
        {row.status === 'failed' ? 'Upload failed: ' : 'Not saved: '}
        {row.error}
      </Text>
    );
  if (problem)
    return (
      <Text size="xs" c="orange.8">
        {problem}
      </Text>
    );
  return null;
}

export interface UploadTableProps {
  rows: readonly UploadRow[];
  workspaceId: string;
  dispatch: (action: RowsAction) => void;
  disabled?: boolean;
}

interface RowContext {
  row: UploadRow;
  /** 'image 3': how the row's inputs are named. */
  ordinal: string;
  locked: boolean;
  workspaceId: string;
  edit: (row: UploadRow, field: EditableKey, value: UploadRow[EditableKey]) => void;
  dispatch: (action: RowsAction) => void;
  disabled?: boolean;
  onCheck: () => void;
}

interface Column {
  header: string;
  /** Width in the table; the rest is shared by the columns without one. */
  width?: number | string;
  render: (context: RowContext) => ReactNode;
}

const COLUMNS: readonly Column[] = [
  {
    header: 'Image',
    width: 170,
    render: ({ row, workspaceId }) => <ThumbCell row={row} workspaceId={workspaceId} />,
  },
  {
    header: 'Name',
    width: '16%',
    render: ({ row, ordinal, locked, edit }) => (
      <Stack gap={4}>
        <TextInput
          size="xs"
          aria-label={`Name of ${ordinal}`}
          value={row.name}
          disabled={locked}
          error={!row.name.trim() && row.status !== 'failed' ? 'Name is required' : undefined}
          onChange={(event) => edit(row, 'name', event.currentTarget.value)}
        />
        <StatusLine row={row} />
      </Stack>
    ),
  },
  {
    header: 'Alt text',
    width: '17%',
    render: ({ row, ordinal, locked, edit }) => (
      <TextInput
        size="xs"
        aria-label={`Alt text of ${ordinal}`}
        value={row.altText}
        disabled={locked}
        placeholder="Describe the image"
        error={!row.altText.trim() && row.status !== 'failed' ? 'Alt Text is required' : undefined}
        onChange={(event) => edit(row, 'altText', event.currentTarget.value)}
      />
    ),
  },
  {
    header: 'Issues',
    width: '16%',
    render: ({ row, onCheck }) => <IssuesCell row={row} onCheck={onCheck} />,
  },
  {
    header: 'Dates (Los Angeles)',
    width: 190,
    render: ({ row, ordinal, locked, edit }) => (
      <Stack gap={6}>
        <UploadDateInput
          size="xs"
          aria-label={`Start time of ${ordinal}`}
          value={row.startTime}
          disabled={locked}
          onChange={(value) => edit(row, 'startTime', value)}
        />
        <UploadDateInput
          size="xs"
          aria-label={`End time of ${ordinal}`}
          value={row.endTime}
          disabled={locked}
          error={
            row.startTime && row.endTime && Date.parse(row.endTime) <= Date.parse(row.startTime)
              ? 'Must be after the start'
              : undefined
          }
          onChange={(value) => edit(row, 'endTime', value)}
        />
      </Stack>
    ),
  },
  { header: 'Tags', render: (context) => <TagsCell {...context} /> },
];

function TagsCell({ row, ordinal, locked, edit }: RowContext) {
  const suggestions = row.sanity && row.sanity !== 'pending' ? suggestedLabels(row.sanity, row.labels) : [];
  return (
    <Stack gap={4}>
      <TagsInput
        size="xs"
        aria-label={`Tags of ${ordinal}`}
        value={row.labels}
        disabled={locked}
        splitChars={[',']}
        acceptValueOnBlur
        placeholder={row.labels.length === 0 ? 'Type and press Enter' : undefined}
        onChange={(next) => edit(row, 'labels', dedupeTags(next))}
      />
      {!locked && suggestions.length > 0 && (
        <Tooltip label={suggestions.join(', ')} multiline maw={280} withArrow>
          <Button
            size="compact-xs"
            variant="subtle"
            leftSection={<IconSparkles size={12} />}
            style={{ alignSelf: 'flex-start' }}
            onClick={() => edit(row, 'labels', dedupeTags([...row.labels, ...suggestions]))}
          >
            Add {suggestions.length} suggested
          </Button>
        </Tooltip>
      )}
    </Stack>
  );
}

function RemoveButton({ row, ordinal, dispatch, disabled }: RowContext) {
  return (
    <ActionIcon
      variant="subtle"
      color="gray"
      aria-label={`Remove ${ordinal}`}
      disabled={row.status === 'saving' || row.status === 'saved' || disabled}
      onClick={() => dispatch({ type: 'remove', key: row.key })}
    >
      <IconTrash size={16} />
    </ActionIcon>
  );
}

/** Narrow screens: one row is a card with its fields stacked, each under its column's name. */
function RowCard(context: RowContext) {
  const { row, ordinal } = context;
  return (
    <Paper p="sm" radius="md" data-testid="upload-row" data-status={row.status} aria-label={ordinal}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          {COLUMNS[0].render(context)}
          <RemoveButton {...context} />
        </Group>
        {COLUMNS.slice(1).map((column) => (
          <Stack key={column.header} gap={4}>
            <Text size="xs" fw={600} c="dimmed">
              {column.header}
            </Text>
            {column.render(context)}
          </Stack>
        ))}
      </Stack>
    </Paper>
  );
}

/**
 * Step 2 of the multi-image upload (spec §2): one row per image with its thumbnail, name, alt text,
 * issues from the image analysis, dates (Los Angeles time) and tags. The table fits the dialog's width
 * (cells wrap); below 64em each image is a card instead.
 */
export function UploadTable({ rows, workspaceId, dispatch, disabled }: UploadTableProps) {
  const [checking, setChecking] = useState<string | null>(null);
  const isWide = useMediaQuery('(min-width: 64em)', true);
  const checkRow = rows.find((row) => row.key === checking);
  const edit = (row: UploadRow, field: EditableKey, value: UploadRow[EditableKey]) =>
    dispatch({ type: 'edit', key: row.key, field, value });
  const contexts = rows.map((row, index): RowContext => ({
    row,
    ordinal: `image ${index + 1}`,
    locked: !!disabled || row.status === 'saved' || row.status === 'saving' || row.status === 'failed',
    workspaceId,
    edit,
    dispatch,
    disabled,
    onCheck: () => setChecking(row.key),
  }));

  return (
    <>
      {isWide ? (
        <ScrollArea.Autosize mah="58vh" type="auto" offsetScrollbars="y">
          <Table
            stickyHeader
            layout="fixed"
            verticalSpacing="sm"
            horizontalSpacing="xs"
            highlightOnHover={false}
            aria-label="Images to save"
          >
            <Table.Thead>
              <Table.Tr>
                {COLUMNS.map((column) => (
                  <Table.Th key={column.header} w={column.width}>
                    {column.header}
                  </Table.Th>
                ))}
                <Table.Th w={44}>
                  <VisuallyHidden>Remove</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {contexts.map((context) => (
                <Table.Tr
                  key={context.row.key}
                  data-testid="upload-row"
                  data-status={context.row.status}
                  style={{ verticalAlign: 'top' }}
                >
                  {COLUMNS.map((column) => (
                    <Table.Td key={column.header}>{column.render(context)}</Table.Td>
                  ))}
                  <Table.Td>
                    <RemoveButton {...context} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
      ) : (
        <ScrollArea.Autosize mah="62vh" type="auto">
          <Stack gap="sm" role="list" aria-label="Images to save">
            {contexts.map((context) => (
              <div role="listitem" key={context.row.key}>
                <RowCard {...context} />
              </div>
            ))}
          </Stack>
        </ScrollArea.Autosize>
      )}
      {checkRow?.record && (
        <ImageCheckDialog
          opened
          onClose={() => setChecking(null)}
          workspaceId={workspaceId}
          storageName={checkRow.record.storageName}
          fileName={checkRow.file.name}
          sanity={checkRow.sanity === 'pending' ? null : checkRow.sanity}
          onAnalysed={(sanity) => dispatch({ type: 'analysed', key: checkRow.key, sanity })}
        />
      )}
    </>
  );
}
