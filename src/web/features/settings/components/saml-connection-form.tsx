import { Button, Card, Code, Group, Spoiler, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { SamlConnectionBody, type SsoSettings } from '@shared/api/sso';
import type { Workspace } from '@shared/api/workspaces';
import { CopyTextButton } from '@web/components/copy-text-button';
import { FormError } from '@web/components/form-error';
import { formatDateTime } from '@web/lib/dates';
import { showToast } from '@web/lib/toast';
import { useSaveSamlSso } from '../api/change-sso';
import { DomainFields, RemoveButton, RoleRulesEditor, type SsoFormValues } from './sso-connection-fields';

function CopyRow({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Stack gap={2}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      <Group gap="xs" wrap="nowrap">
        <Code block style={{ flex: 1, wordBreak: 'break-all' }} data-testid={testId}>
          {value}
        </Code>
        <CopyTextButton value={value} label={`Copy the ${label.toLowerCase()}`} />
      </Group>
    </Stack>
  );
}

/** What to register at the identity provider: our entity id, ACS URL and metadata. */
export function SamlServiceProviderCard({ settings }: { settings: SsoSettings }) {
  const { saml } = settings;
  return (
    <Card p="lg">
      <Stack gap="sm">
        <Title order={5}>Register Marquee at your identity provider</Title>
        <Text size="sm" c="dimmed">
          Add a SAML 2.0 application from this metadata (or its URL), have it sign its assertions, and send a
          groups attribute if roles should follow your groups.
        </Text>
        <CopyRow label="Entity ID and metadata URL" value={saml.entityId} testId="saml-entity-id" />
        <CopyRow label="Assertion consumer service URL" value={saml.acsUrl} testId="saml-acs-url" />
        <Stack gap={2}>
          <Group justify="space-between">
            <Text size="sm" fw={500}>
              Metadata
            </Text>
            <CopyTextButton value={saml.metadata} label="Copy the metadata" />
          </Group>
          <Spoiler maxHeight={72} showLabel="Show all" hideLabel="Show less">
            <Code
              block
              data-testid="saml-metadata"
              style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
            >
              {saml.metadata}
            </Code>
          </Spoiler>
        </Stack>
      </Stack>
    </Card>
  );
}

/** A SAML 2.0 identity provider: its single sign-on URL, entity id and signing certificate, pinned. */
export function SamlConnectionForm({ workspace, settings }: { workspace: Workspace; settings: SsoSettings }) {
  const saved = settings.connection?.kind === 'saml' ? settings.connection : null;
  const save = useSaveSamlSso(workspace.id);
  const form = useForm<SsoFormValues>({
    mode: 'controlled',
    initialValues: {
      issuer: '',
      clientId: '',
      clientSecret: '',
      entryPoint: saved?.saml?.entryPoint ?? '',
      idpIssuer: saved?.issuer ?? '',
      idpCert: saved?.saml?.idpCert ?? '',
      audience: saved?.saml?.audience ?? '',
      domains: saved?.domains ?? [],
      allowPassword: saved?.allowPassword ?? true,
      roleRules: saved?.roleRules ?? [],
    },
    validate: schemaResolver(SamlConnectionBody, { sync: true }),
  });
  const handleSubmit = form.onSubmit((values) =>
    save.mutate(
      {
        entryPoint: values.entryPoint,
        idpIssuer: values.idpIssuer,
        idpCert: values.idpCert,
        audience: values.audience,
        domains: values.domains,
        allowPassword: values.allowPassword,
        roleRules: values.roleRules,
      },
      {
        onSuccess: () =>
          showToast({ color: 'teal', title: 'Single sign-on saved', message: values.idpIssuer }),
      },
    ),
  );
  return (
    <Card p="lg">
      <form onSubmit={handleSubmit} noValidate aria-label="SAML 2.0">
        <Stack gap="md">
          <Stack gap={2}>
            <Title order={5}>SAML 2.0</Title>
            <Text size="sm" c="dimmed">
              Entra ID, Okta, Google Workspace, ADFS or any SAML identity provider. Only assertions signed
              with the certificate below are taken.
            </Text>
          </Stack>
          <FormError error={save.error} />
          <TextInput
            label="Single sign-on URL"
            placeholder="https://login.example.com/saml/sso"
            {...form.getInputProps('entryPoint')}
          />
          <TextInput
            label="Identity provider entity ID"
            placeholder="https://login.example.com/saml/metadata"
            {...form.getInputProps('idpIssuer')}
          />
          <Textarea
            label="Signing certificate"
            description="PEM, as the identity provider's metadata or settings show it"
            autosize
            minRows={4}
            maxRows={10}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
            {...form.getInputProps('idpCert')}
          />
          <TextInput
            label="Audience"
            description="Leave empty to require our entity ID, as most identity providers send it"
            {...form.getInputProps('audience')}
          />
          <DomainFields form={form} />
          <RoleRulesEditor workspace={workspace} form={form} claimLabel="Attribute" />
          <Group justify="space-between">
            <Text size="xs" c="dimmed">
              {saved ? `Saved by ${saved.updatedBy}, ${formatDateTime(saved.updatedAt)}` : 'Not set up yet'}
            </Text>
            <Group gap="sm">
              {saved && <RemoveButton workspaceId={workspace.id} />}
              <Button type="submit" loading={save.isPending}>
                Save
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
