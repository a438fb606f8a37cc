import { useState } from 'react';
import {
  Button,
  Divider,
  Group,
  Modal,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  UnstyledButton,
} from '@mantine/core';
import { IconPhotoUp } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import type { Workspace } from '@shared/api/workspaces';
import { IMAGE_SET_SCHEMA } from '@shared/schemas/assets';
import type { Domain, SchemaType } from '@shared/schemas/types';
import { LazyMultiImageUploadDialog } from '@web/components/media/multi-image-upload-lazy';
import { DomainIcon, SchemaIcon } from '@web/components/schema-icon';
import { schemaListPath } from '@web/lib/item-paths';
import { useWorkspaceModel } from '@web/lib/content-model';
import { canUploadImages, editableTypes, newItemPath } from './editable-types';

/** The 'Upload images' option of the Add dialog (spec §2: offered when the user may edit marquee-assets-image-set). */
function UploadImagesOption({ onStart }: { onStart: () => void }) {
  return (
    <Button
      onClick={onStart}
      variant="light"
      leftSection={<IconPhotoUp size={18} />}
      data-testid="upload-images-option"
    >
      Upload images
    </Button>
  );
}

function TypeButton({
  workspaceId,
  domain,
  schema,
  onPick,
}: {
  workspaceId: string;
  domain: Domain;
  schema: SchemaType;
  onPick: () => void;
}) {
  return (
    <UnstyledButton
      component={Link}
      to={newItemPath(workspaceId, domain.name, schema.name)}
      onClick={onPick}
      p="sm"
      style={{
        border: '1px solid var(--mantine-color-default-border)',
        borderRadius: 'var(--mantine-radius-md)',
      }}
      aria-label={`New ${schema.title}`}
    >
      <Group gap="sm" wrap="nowrap">
        <ThemeIcon variant="light" size={32}>
          <SchemaIcon name={schema.icon} size={18} />
        </ThemeIcon>
        <Text fw={500} size="sm">
          {schema.title}
        </Text>
      </Group>
    </UnstyledButton>
  );
}

/** Spec §2 Add dialog: editable types grouped by domain, and the multi-image upload when allowed. */
export function AddItemDialog({
  workspace,
  opened,
  onClose,
}: {
  workspace: Workspace;
  opened: boolean;
  onClose: () => void;
}) {
  const groups = editableTypes(workspace, useWorkspaceModel(workspace));
  const navigate = useNavigate();
  // The multi-image upload outlives the Add dialog, which closes as it opens.
  const [uploadOpen, setUploadOpen] = useState(false);
  return (
    <>
      <LazyMultiImageUploadDialog
        opened={uploadOpen}
        onClose={() => setUploadOpen(false)}
        workspaceId={workspace.id}
        onSaved={() => navigate(schemaListPath(workspace.id, 'assets', IMAGE_SET_SCHEMA))}
      />
      <Modal opened={opened} onClose={onClose} title={<Text fw={600}>Add an item</Text>} size="lg" centered>
        <Stack gap="lg">
          {canUploadImages(groups) && (
            <>
              <Group justify="space-between">
                <Text size="sm" c="dimmed">
                  Several pictures at once? Upload them as image sets.
                </Text>
                <UploadImagesOption
                  onStart={() => {
                    onClose();
                    setUploadOpen(true);
                  }}
                />
              </Group>
              <Divider />
            </>
          )}
          {groups.map(({ domain, schemas }) => (
            <Stack key={domain.name} gap={8}>
              <Group gap={6}>
                <DomainIcon name={domain.name} size={16} />
                <Text size="xs" fw={600} c="dimmed" tt="uppercase" style={{ letterSpacing: '0.04em' }}>
                  {domain.title}
                </Text>
              </Group>
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
                {schemas.map((schema) => (
                  <TypeButton
                    key={schema.name}
                    workspaceId={workspace.id}
                    domain={domain}
                    schema={schema}
                    onPick={onClose}
                  />
                ))}
              </SimpleGrid>
            </Stack>
          ))}
        </Stack>
      </Modal>
    </>
  );
}
