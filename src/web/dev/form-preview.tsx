/**
 * Dev-only preview of the item form: every built-in schema with sample data in view, edit and compare
 * modes. Served by `npx vite` at /dev/form-preview.html; not an entry of the production build.
 * Query: ?schema={name}&mode=view|edit|compare&canEdit=0 to show one form.
 */
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import {
  Anchor,
  Container,
  Group,
  MantineProvider,
  SegmentedControl,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications, notifications } from '@mantine/notifications';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/dates/styles.css';
import { BUILT_IN_MODEL } from '@shared/model/registry';
import { theme } from '../app/theme';
import { ItemForm, type ItemFormMode } from '../components/item-form/item-form';
import { SAMPLE_ITEMS, sampleReferenceSearch } from './sample-items';

const params = new URLSearchParams(window.location.search);

function Preview({
  schemaName,
  initialMode,
  canEdit,
}: {
  schemaName: string;
  initialMode: ItemFormMode;
  canEdit: boolean;
}) {
  const schema = BUILT_IN_MODEL.schema(schemaName);
  const [mode, setMode] = useState<ItemFormMode>(initialMode);
  const sample = SAMPLE_ITEMS[schemaName];
  const [value, setValue] = useState(sample?.after ?? {});
  if (!schema) return <Text>Unknown schema {schemaName}</Text>;
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={3}>{schema.title}</Title>
        <SegmentedControl
          size="xs"
          value={mode}
          onChange={(next) => setMode(next as ItemFormMode)}
          data={['view', 'edit', 'compare']}
        />
      </Group>
      <ItemForm
        schema={schema}
        value={value}
        mode={mode}
        canEdit={canEdit}
        compareWith={sample ? { label: 'Version 1', data: sample.before } : undefined}
        valueLabel="Version 2 (current)"
        referenceSearch={sampleReferenceSearch}
        generateTypes={async (name) =>
          `export interface ${name.replace(/(^|-)(\w)/g, (_m, _d, c: string) => c.toUpperCase())} {\n  name: string;\n}\n`
        }
        onModeChange={setMode}
        onSave={async (data, meta) => {
          setValue(data);
          notifications.show({ message: `Saved${meta.hasErrors ? ' with errors' : ''}` });
        }}
      />
    </Stack>
  );
}

function Index() {
  return (
    <Stack>
      <Title order={2}>Item form preview</Title>
      {BUILT_IN_MODEL.domains.map((domain) => (
        <Stack key={domain.name} gap={4}>
          <Text fw={600}>{domain.title}</Text>
          {domain.schemas.map((schema) => (
            <Group key={schema.name} gap="sm">
              <Text w={220}>{schema.title}</Text>
              {(['view', 'edit', 'compare'] as const).map((mode) => (
                <Anchor key={mode} href={`?schema=${schema.name}&mode=${mode}`}>
                  {mode}
                </Anchor>
              ))}
            </Group>
          ))}
        </Stack>
      ))}
    </Stack>
  );
}

const schemaName = params.get('schema');
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} defaultColorScheme="light">
      <ModalsProvider>
        <Notifications position="top-right" />
        <Container size={params.get('width') === 'narrow' ? 'xs' : 'lg'} py="lg">
          {schemaName ? (
            <Preview
              schemaName={schemaName}
              initialMode={(params.get('mode') as ItemFormMode) ?? 'view'}
              canEdit={params.get('canEdit') !== '0'}
            />
          ) : (
            <Index />
          )}
        </Container>
      </ModalsProvider>
    </MantineProvider>
  </StrictMode>,
);
