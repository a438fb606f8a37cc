import { lazy, Suspense, useState } from 'react';
import { Alert, Skeleton, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconInfoCircle } from '@tabler/icons-react';
import type { CodeField as CodeFieldDef } from '@shared/schemas/types';
import { testCollection } from '@shared/schemas/admin';
import { applyCodeEdit, codeBody, loadCode } from '@shared/validation/code-blocks';
import { DEFAULT_CODE_LOADED_MESSAGE } from '@shared/validation/messages';
import { useFieldEnvironment } from './field-environment';
import type { FieldProps } from './types';
import { RunTestPanel } from './run-test-panel';

/** Spec §9: the code editor is 400 pixels high. */
const CODE_EDITOR_HEIGHT = 400;

const CodeEditor = lazy(() => import('./code-editor'));

/**
 * Code between fixed blocks (spec §5). An edit that touches the beginning or ending block is refused
 * with 'Beginning block cannot be changed' or 'Ending block cannot be changed' and the last good code
 * stays; emptied code loads the default with 'Loaded default code'.
 */
export function CodeField({ field, value, onChange, readOnly, error, path }: FieldProps<CodeFieldDef>) {
  const { loadedDefaults, schema } = useFieldEnvironment();
  const isRunnable = schema.name === testCollection.name;
  const opened = loadCode(field, typeof value === 'string' ? value : '');
  const [message, setMessage] = useState<string | undefined>(() =>
    loadedDefaults.has(path) ? DEFAULT_CODE_LOADED_MESSAGE : undefined,
  );
  const shownMessage = message ?? opened.message;
  const refused = shownMessage !== undefined && shownMessage !== DEFAULT_CODE_LOADED_MESSAGE;

  const guard = (previous: string, next: string) => {
    const edit = applyCodeEdit(field, previous, next);
    // Deferred: the guard runs inside CodeMirror's transaction.
    queueMicrotask(() => setMessage(edit.message));
    return edit.code;
  };

  return (
    <Stack gap="xs">
      {shownMessage && (
        <Alert
          variant="light"
          color={refused ? 'orange' : 'blue'}
          icon={refused ? <IconAlertTriangle size={18} /> : <IconInfoCircle size={18} />}
          py={6}
          role={refused ? 'alert' : 'status'}
        >
          {shownMessage}
        </Alert>
      )}
      <Suspense fallback={<Skeleton height={CODE_EDITOR_HEIGHT} radius="md" />}>
        <CodeEditor
          value={opened.code}
          language={field.language}
          readOnly={readOnly}
          height={CODE_EDITOR_HEIGHT}
          guard={guard}
          ariaLabel={field.label}
          fixed={{ begin: field.beginBlock.length, end: field.endBlock.length }}
          onChange={onChange}
        />
      </Suspense>
      {error && (
        <Text size="xs" c="red">
          {error}
        </Text>
      )}
      {isRunnable && <RunTestPanel body={codeBody(field, opened.code)} />}
    </Stack>
  );
}
