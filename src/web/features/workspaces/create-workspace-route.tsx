import { Anchor, Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { Link, useNavigate } from 'react-router';
import { CreateWorkspaceBody } from '@shared/api/workspaces';
import { toKebabCase } from '@shared/text/slug';
import { oobePath } from '@web/app/guards';
import { SimplePageLayout } from '@web/components/simple-page-layout';
import { FormError } from '@web/components/form-error';
import { useCreateWorkspace } from './api/create-workspace';

/** /workspaces/create: name a workspace; onboarding follows. */
export default function CreateWorkspaceRoute() {
  const navigate = useNavigate();
  const create = useCreateWorkspace();
  const form = useForm({
    mode: 'controlled',
    initialValues: { name: '' },
    validate: schemaResolver(CreateWorkspaceBody, { sync: true }),
  });
  const slug = toKebabCase(form.values.name);

  const handleSubmit = form.onSubmit((values) =>
    create.mutate(values, { onSuccess: (workspace) => navigate(oobePath(workspace.id)) }),
  );

  return (
    <SimplePageLayout size={560}>
      <Stack gap="lg">
        <Anchor component={Link} to="/workspaces" size="sm">
          ← All workspaces
        </Anchor>
        <Stack gap={4}>
          <Title order={1} fz="h2">
            Create a workspace
          </Title>
          <Text c="dimmed">You will be its workspace manager. You can invite your team right after.</Text>
        </Stack>
        <Card p="xl" radius="lg">
          <form onSubmit={handleSubmit} noValidate>
            <FormError error={create.error} />
            <Stack gap="md">
              <TextInput
                label="Workspace name"
                placeholder="Acme Marketing"
                data-autofocus
                autoFocus
                key={form.key('name')}
                {...form.getInputProps('name')}
              />
              <Text size="sm" c="dimmed">
                Address:{' '}
                <Text span ff="monospace" c={slug ? 'var(--mantine-color-text)' : 'dimmed'}>
                  /{slug || 'your-workspace'}
                </Text>
              </Text>
              <Group justify="flex-end">
                <Button variant="default" component={Link} to="/workspaces">
                  Cancel
                </Button>
                <Button type="submit" loading={create.isPending}>
                  Create workspace
                </Button>
              </Group>
            </Stack>
          </form>
        </Card>
      </Stack>
    </SimplePageLayout>
  );
}
