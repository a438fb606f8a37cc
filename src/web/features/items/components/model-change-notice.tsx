import { useCallback, useMemo, useState } from 'react';
import { Alert } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import type { SchemaType } from '@shared/schemas/types';
import type { ItemData } from '@web/components/fields/types';

const MODEL_CHANGED = 'The content model changed: the form now shows its new fields.';
const CHANGES_KEPT = ' Your unsaved changes are kept.';

/** Whether the item form holds unsaved changes, from its onDataChange (which this wraps). */
export function useFormDirty(onDataChange?: (data: ItemData, dirty: boolean) => void) {
  const [dirty, setDirty] = useState(false);
  const handleDataChange = useCallback(
    (data: ItemData, isDirty: boolean) => {
      onDataChange?.(data, isDirty);
      setDirty(isDirty);
    },
    [onDataChange],
  );
  return { dirty, handleDataChange };
}

/**
 * Above an open item form: the workspace's content model changed and with it this form's schema, so
 * the form shows the new fields (the user's values stay, less those of fields removed).
 */
export function ModelChangeNotice({
  version,
  schema,
  dirty,
}: {
  /** The model version the schema is from. */
  version: number;
  schema: SchemaType;
  /** The form holds unsaved changes. */
  dirty: boolean;
}) {
  const fields = useMemo(() => JSON.stringify(schema.fields), [schema.fields]);
  const [seen, setSeen] = useState({ version, fields, changed: false });
  // A model change that leaves this schema as it was says nothing here.
  if (seen.version !== version) setSeen({ version, fields, changed: seen.changed || seen.fields !== fields });
  if (!seen.changed) return null;
  return (
    <Alert
      color="blue"
      variant="light"
      icon={<IconInfoCircle size={18} />}
      role="status"
      withCloseButton
      closeButtonLabel="Dismiss"
      onClose={() => setSeen({ ...seen, changed: false })}
      data-testid="model-changed"
    >
      {MODEL_CHANGED}
      {dirty && CHANGES_KEPT}
    </Alert>
  );
}
