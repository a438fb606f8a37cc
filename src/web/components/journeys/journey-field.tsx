import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert, Stack, Text } from '@mantine/core';
import { useParams } from 'react-router';
import { CodeField } from '../fields/code-field';
import type { FieldProps } from '../fields/types';
import type { CodeField as CodeFieldDef } from '@shared/schemas/types';
import { useJourneyResults } from './api/get-results';
import { countsByStep } from './counts';
import { readDefinition, writeDefinition, type CanvasDefinition } from './definition';
import { JourneyEditor } from './journey-editor';

const NEW_ITEM_ID = 'new';

/**
 * The journey's definition field drawn as a canvas. Every change is written back to the field as JSON
 * text, so saving, versions, comments and approvals treat it as any other field; a definition the canvas
 * cannot draw is offered as JSON instead.
 */
export default function JourneyField(props: FieldProps<CodeFieldDef>) {
  const { value, onChange, readOnly, error } = props;
  const { workspace = '', id = NEW_ITEM_ID } = useParams();
  const results = useJourneyResults(workspace, id === NEW_ITEM_ID ? null : id);
  const read = readDefinition(value);
  const [definition, setDefinition] = useState<CanvasDefinition | null>(read.ok ? read.definition : null);
  const written = useRef(typeof value === 'string' ? value : '');

  // The field's value changed from outside (a reload, a restored version): draw it again.
  useEffect(() => {
    if (value === written.current) return;
    written.current = typeof value === 'string' ? value : '';
    const next = readDefinition(value);
    setDefinition(next.ok ? next.definition : null);
  }, [value]);

  const handleUpdate = useCallback(
    (change: (current: CanvasDefinition) => CanvasDefinition) =>
      setDefinition((current) => {
        if (!current) return current;
        const next = change(current);
        written.current = writeDefinition(next);
        queueMicrotask(() => onChange(written.current));
        return next;
      }),
    [onChange],
  );

  if (!definition)
    return (
      <Stack gap="xs">
        <Alert color="orange" variant="light" py={6} role="alert">
          The canvas cannot draw this definition ({read.ok ? 'it is empty' : read.problem}); edit it as JSON.
        </Alert>
        <CodeField {...props} />
      </Stack>
    );
  return (
    <Stack gap={4}>
      <JourneyEditor
        definition={definition}
        onUpdate={handleUpdate}
        counts={countsByStep(results.data)}
        readOnly={readOnly}
        workspaceId={workspace}
      />
      {error && (
        <Text size="xs" c="red">
          {error}
        </Text>
      )}
    </Stack>
  );
}
