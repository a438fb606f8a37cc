import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Loader,
  Modal,
  Stack,
  Table,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IconAlertTriangle, IconCircleCheck, IconInfoCircle, IconWorldSearch } from '@tabler/icons-react';
import type { SanityResult } from '@shared/media/contract';
import { errorMessage } from '@web/lib/api-client';
import { formatDateTime } from '@web/lib/dates';
import { getSanity, sanityQueryKey, useSanity } from './api/get-sanity';
import { summariseSanity, type SanitySummary } from './sanity-summary';

export interface ImageCheckDialogProps {
  opened: boolean;
  onClose: () => void;
  workspaceId: string;
  storageName: string;
  fileName?: string;
  /** The analysis the file record already holds; fetched from /fun/sanity/ when missing. */
  sanity?: SanityResult | null;
  /** Called with a fresh analysis (after 'Analyse again' or a first fetch), to keep it in the value. */
  onAnalysed?: (sanity: SanityResult) => void;
}

function MatchesSection({ summary }: { summary: SanitySummary }) {
  const found = summary.matches.length > 0;
  const where = summary.checkedPublicInternet ? 'on the public internet' : 'in this workspace';
  return (
    <Stack gap="xs">
      <Title order={4} fz="md">
        Matching images
      </Title>
      {!summary.checkedPublicInternet && (
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <ThemeIcon variant="light" color="gray" size="sm" radius="xl">
            <IconWorldSearch size={14} />
          </ThemeIcon>
          <Text size="sm" c="dimmed">
            Public internet: not checked (no image analysis service is configured)
          </Text>
        </Group>
      )}
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <ThemeIcon variant="light" color={found ? 'orange' : 'teal'} size="sm" radius="xl">
          {found ? <IconAlertTriangle size={14} /> : <IconCircleCheck size={14} />}
        </ThemeIcon>
        <Text size="sm" fw={500} data-testid="matching-images-verdict">
          {found
            ? `${summary.matches.length} matching image${summary.matches.length === 1 ? '' : 's'} found ${where}`
            : `No matching images found ${where}`}
        </Text>
      </Group>
      {found && (
        <Stack gap={4} pl={30} component="ul" style={{ listStyle: 'none', margin: 0 }}>
          {summary.matches.map((match, index) => (
            <li key={`${match.url}-${index}`}>
              <Anchor
                href={match.url}
                target="_blank"
                rel="noopener noreferrer"
                size="sm"
                style={{ overflowWrap: 'anywhere' }}
              >
                {match.pageTitle || match.url}
              </Anchor>
            </li>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

function SafeSearchSection({ summary }: { summary: SanitySummary }) {
  return (
    <Stack gap="xs">
      <Title order={4} fz="md">
        Safe search
      </Title>
      <Table withRowBorders verticalSpacing={6} aria-label="Safe search ratings">
        <Table.Tbody>
          {summary.ratings.map((rating) => (
            <Table.Tr key={rating.category}>
              <Table.Td w="45%">
                <Text size="sm">{rating.title}</Text>
              </Table.Td>
              <Table.Td>
                <Badge
                  color={rating.color}
                  variant="light"
                  tt="none"
                  data-testid={`rating-${rating.category}`}
                >
                  {rating.text}
                </Badge>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

function LabelsSection({ labels }: { labels: string[] }) {
  return (
    <Stack gap="xs">
      <Title order={4} fz="md">
        Labels
      </Title>
      <Group gap={6}>
        {labels.map((label) => (
          <Badge key={label} variant="light" color="gray" tt="none" fw={500} c="dark.6">
            {label}
          </Badge>
        ))}
      </Group>
    </Stack>
  );
}

/** What the analyser could not do or check, in small print. */
function AnalysisNotes({ notes }: { notes: string[] }) {
  return (
    <Alert variant="light" color="gray" icon={<IconInfoCircle size={18} />} p="sm">
      <Stack gap={4}>
        {notes.map((note) => (
          <Text key={note} size="xs">
            {note}
          </Text>
        ))}
      </Stack>
    </Alert>
  );
}

/**
 * The file's analysis: the one its record holds, else fetched while the dialog is open (and handed to
 * the value once), or a fresh one after 'Analyse again'.
 */
function useImageAnalysis({
  opened,
  workspaceId,
  storageName,
  sanity,
  onAnalysed,
}: Pick<ImageCheckDialogProps, 'opened' | 'workspaceId' | 'storageName' | 'sanity' | 'onAnalysed'>) {
  const client = useQueryClient();
  const [fresh, setFresh] = useState<SanityResult | null>(null);
  const query = useSanity(workspaceId, storageName, opened && !sanity && !fresh);

  const onAnalysedRef = useRef(onAnalysed);
  useEffect(() => {
    onAnalysedRef.current = onAnalysed;
  });
  // The first analysis of a file that had none is handed to the value once.
  useEffect(() => {
    if (opened && !sanity && query.data) onAnalysedRef.current?.(query.data);
  }, [opened, sanity, query.data]);

  const reanalyse = useMutation({
    mutationFn: () => getSanity(workspaceId, storageName),
    onSuccess: (answer) => {
      setFresh(answer);
      client.setQueryData(sanityQueryKey(workspaceId, storageName), answer);
      onAnalysedRef.current?.(answer);
    },
  });

  return { result: fresh ?? sanity ?? query.data ?? null, query, reanalyse };
}

/**
 * Spec §2 Image check dialog: whether matching images were found (on the public internet with Google
 * Cloud Vision, in the workspace with the local analyser), the matches, and the five safe-search
 * ratings, 'Not analysed' where the analyser gave none.
 */
export function ImageCheckDialog(props: ImageCheckDialogProps) {
  const { opened, onClose, fileName } = props;
  const { result, query, reanalyse } = useImageAnalysis(props);
  const summary = result ? summariseSanity(result) : null;

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={<Text fw={650}>Image check{fileName ? `: ${fileName}` : ''}</Text>}
      size="lg"
      centered
    >
      {!result && query.isPending && (
        <Group gap="sm" py="lg" justify="center">
          <Loader size="sm" />
          <Text size="sm" c="dimmed">
            Analysing the image…
          </Text>
        </Group>
      )}
      {!result && query.isError && (
        <Alert
          color="red"
          variant="light"
          icon={<IconAlertTriangle size={18} />}
          title="The image could not be analysed"
        >
          {errorMessage(query.error)}
        </Alert>
      )}
      {summary && result && (
        <Stack gap="lg">
          <MatchesSection summary={summary} />
          <SafeSearchSection summary={summary} />
          {summary.labels.length > 0 && <LabelsSection labels={summary.labels} />}
          {reanalyse.isError && (
            <Text size="sm" c="red">
              {errorMessage(reanalyse.error)}
            </Text>
          )}
          {summary.notes.length > 0 && <AnalysisNotes notes={summary.notes} />}
          <Group justify="space-between">
            <Text size="xs" c="dimmed">
              {result.analysedBy === 'google-vision' ? 'Google Cloud Vision' : 'Local analyser'} ·{' '}
              {formatDateTime(result.analysedAt)}
            </Text>
            <Group gap="xs">
              <Button
                variant="default"
                size="xs"
                loading={reanalyse.isPending}
                onClick={() => reanalyse.mutate()}
              >
                Analyse again
              </Button>
              <Button size="xs" onClick={onClose}>
                Done
              </Button>
            </Group>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
