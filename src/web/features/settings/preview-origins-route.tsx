import { useEffect, useState } from 'react';
import { Card, Code, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { isPreviewOrigin, PREVIEW_MESSAGES } from '@shared/api/preview';
import { FormError } from '@web/components/form-error';
import { usePreviewOrigins, useUpdatePreviewOrigins } from '@web/lib/preview';
import { showToast } from '@web/lib/toast';
import { useCurrentWorkspace } from '@web/lib/workspace';
import { SaveBar } from './components/save-bar';
import { InputRows } from './content-model/components/input-rows';

/** The origins as they are sent: trimmed, without empty rows. */
const cleaned = (rows: readonly string[]) => rows.map((row) => row.trim()).filter(Boolean);

/**
 * /{workspace}/_settings/preview: the origins of the websites the preview pane shows. A schema's
 * preview URL on any other origin is not offered, gets no token and is sent nothing.
 */
export default function PreviewOriginsRoute() {
  const workspace = useCurrentWorkspace();
  const origins = usePreviewOrigins(workspace.id);
  const update = useUpdatePreviewOrigins(workspace.id);
  const saved = origins.data?.origins;
  const [rows, setRows] = useState<string[]>([]);
  useEffect(() => setRows(saved ? [...saved] : []), [saved]);

  if (origins.isError) return <FormError error={origins.error} />;
  if (!saved) return <Skeleton h={200} radius="md" />;

  const isDirty = JSON.stringify(cleaned(rows)) !== JSON.stringify(saved);
  const problemOf = (row: string) =>
    row.trim() && !isPreviewOrigin(row.trim()) ? PREVIEW_MESSAGES.origin(row.trim()) : undefined;

  const handleSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    if (rows.some(problemOf)) return;
    update.mutate(cleaned(rows), {
      onSuccess: () => showToast({ color: 'teal', message: 'Preview origins saved' }),
    });
  };

  return (
    <form onSubmit={handleSubmit} noValidate aria-label="Preview origins">
      <FormError error={update.error} />
      <Card p="lg">
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            The websites whose pages editors see beside the form, as <Code>https://www.example.com</Code> or{' '}
            <Code>http://localhost:3000</Code>: a scheme, a host and a port, no path. Each schema’s preview
            URLs are set in its schema under Content model; a page on an origin missing here is not shown and
            is sent nothing.
          </Text>
          {rows.length === 0 && <Text size="sm">No preview origins yet.</Text>}
          <InputRows
            count={rows.length}
            noun="origin"
            renderRow={(index) => (
              <TextInput
                aria-label={`Preview origin ${index + 1}`}
                placeholder="https://www.example.com"
                value={rows[index]}
                error={problemOf(rows[index])}
                onChange={(event) => {
                  const value = event.currentTarget.value;
                  setRows((current) => current.map((row, i) => (i === index ? value : row)));
                }}
                style={{ flex: 1 }}
              />
            )}
            onAdd={() => setRows((current) => [...current, ''])}
            onRemove={(index) => setRows((current) => current.filter((_, i) => i !== index))}
          />
        </Stack>
      </Card>
      <SaveBar
        isDirty={isDirty}
        isSaving={update.isPending}
        onReset={() => setRows([...saved])}
        saveLabel="Save preview origins"
      />
    </form>
  );
}
