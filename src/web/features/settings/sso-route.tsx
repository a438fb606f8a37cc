import {
  ActionIcon,
  Alert,
  Button,
  Card,
  Code,
  CopyButton,
  Group,
  PasswordInput,
  SegmentedControl,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { useState } from 'react';
import { schemaResolver, useForm } from '@mantine/form';
import { IconCheck, IconCopy, IconPlugConnected } from '@tabler/icons-react';
import { SsoConnectionBody, type SsoKind, type SsoSettings } from '@shared/api/sso';
import type { Workspace } from '@shared/api/workspaces';
import { FormError } from '@web/components/form-error';
import { formatDateTime } from '@web/lib/dates';
import { showToast } from '@web/lib/toast';
import { useCurrentWorkspace } from '@web/lib/workspace';
import { useSaveSso, useTestSso } from './api/change-sso';
import { useSsoSettings } from './api/get-sso';
import { ScimProvisioningCard } from './components/scim-provisioning-card';
import { TwoFactorRequirementCard } from './components/two-factor-requirement-card';
import {
  DomainFields,
  RemoveButton,
  RoleRulesEditor,
  type SsoFormValues,
} from './components/sso-connection-fields';
import { SamlConnectionForm, SamlServiceProviderCard } from './components/saml-connection-form';

const NO_SAML = { entryPoint: '', idpIssuer: '', idpCert: '', audience: '' };

/**
 * /{workspace}/_settings/sso: the workspace's identity provider — OpenID Connect or SAML 2.0 — its
 * domains and its role rules.
 */
export default function SsoRoute() {
  const workspace = useCurrentWorkspace();
  const { data, isPending, error } = useSsoSettings(workspace.id);
  const [chosenKind, setKind] = useState<SsoKind | null>(null);
  const kind = chosenKind ?? data?.connection?.kind ?? 'oidc';
  const key = data?.connection?.updatedAt ?? 'new';
  return (
    <Stack gap="lg">
      <TwoFactorRequirementCard workspaceId={workspace.id} />
      <FormError error={error} />
      {isPending ? (
        <Skeleton h={320} radius="md" />
      ) : data ? (
        <>
          <SegmentedControl
            aria-label="Kind of identity provider"
            value={kind}
            onChange={(value) => setKind(value as SsoKind)}
            data={[
              { label: 'OpenID Connect', value: 'oidc' },
              { label: 'SAML 2.0', value: 'saml' },
            ]}
          />
          {kind === 'oidc' ? (
            <>
              <RedirectCard settings={data} />
              <ConnectionForm key={key} workspace={workspace} settings={data} />
            </>
          ) : (
            <>
              <SamlServiceProviderCard settings={data} />
              <SamlConnectionForm key={key} workspace={workspace} settings={data} />
            </>
          )}
          <ScimProvisioningCard workspaceId={workspace.id} />
        </>
      ) : null}
    </Stack>
  );
}

function RedirectCard({ settings }: { settings: SsoSettings }) {
  return (
    <Card p="lg">
      <Stack gap="xs">
        <Title order={5}>Register Marquee at your identity provider</Title>
        <Text size="sm" c="dimmed">
          Create an OpenID Connect web application (authorization code flow) with this redirect URI, and have
          it send a <Code>groups</Code> claim if roles should follow your groups.
        </Text>
        <Group gap="xs" wrap="nowrap">
          <Code block style={{ flex: 1 }} data-testid="sso-redirect-uri">
            {settings.redirectUri}
          </Code>
          <CopyButton value={settings.redirectUri}>
            {({ copied, copy }) => (
              <Tooltip label={copied ? 'Copied' : 'Copy'}>
                <ActionIcon variant="subtle" onClick={copy} aria-label="Copy the redirect URI">
                  {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                </ActionIcon>
              </Tooltip>
            )}
          </CopyButton>
        </Group>
      </Stack>
    </Card>
  );
}

function ConnectionForm({ workspace, settings }: { workspace: Workspace; settings: SsoSettings }) {
  // A SAML connection saved in its place is replaced by saving this one.
  const saved = settings.connection?.kind === 'oidc' ? settings.connection : null;
  const save = useSaveSso(workspace.id);
  const test = useTestSso(workspace.id);
  const form = useForm<SsoFormValues>({
    mode: 'controlled',
    initialValues: {
      issuer: saved?.issuer ?? '',
      clientId: saved?.clientId ?? '',
      clientSecret: '',
      ...NO_SAML,
      domains: saved?.domains ?? [],
      allowPassword: saved?.allowPassword ?? true,
      roleRules: saved?.roleRules ?? [],
    },
    validate: schemaResolver(SsoConnectionBody, { sync: true }),
  });
  const handleSubmit = form.onSubmit((values) =>
    save.mutate(
      { ...values, clientSecret: values.clientSecret || undefined },
      {
        onSuccess: () => showToast({ color: 'teal', title: 'Single sign-on saved', message: values.issuer }),
      },
    ),
  );
  const handleTest = () => {
    if (form.validateField('issuer').hasError) return;
    test.mutate(form.values.issuer);
  };
  return (
    <Card p="lg">
      <form onSubmit={handleSubmit} noValidate aria-label="OpenID Connect">
        <Stack gap="md">
          <Stack gap={2}>
            <Title order={5}>OpenID Connect</Title>
            <Text size="sm" c="dimmed">
              Entra ID, Okta, Google Workspace, Keycloak, Authentik or any OpenID provider. People sign in
              there and land here with the roles your rules give them.
            </Text>
          </Stack>
          <FormError error={save.error ?? test.error} />
          {test.data && (
            <Alert color="teal" variant="light" title="Connection works" data-testid="sso-test-result">
              {test.data.issuer} answered its discovery document.
            </Alert>
          )}
          <Group align="flex-end" wrap="nowrap">
            <TextInput
              label="Issuer URL"
              placeholder="https://login.example.com/realms/marketing"
              style={{ flex: 1 }}
              {...form.getInputProps('issuer')}
            />
            <Button
              variant="default"
              leftSection={<IconPlugConnected size={16} />}
              onClick={handleTest}
              loading={test.isPending}
            >
              Test connection
            </Button>
          </Group>
          <Group grow align="flex-start">
            <TextInput label="Client ID" {...form.getInputProps('clientId')} />
            <PasswordInput
              label="Client secret"
              placeholder={saved?.hasClientSecret ? 'Saved — leave empty to keep it' : undefined}
              {...form.getInputProps('clientSecret')}
            />
          </Group>
          <DomainFields form={form} />
          <RoleRulesEditor workspace={workspace} form={form} />
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
