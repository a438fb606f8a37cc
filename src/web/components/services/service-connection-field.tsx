import { Alert, Button, Group, MultiSelect, Select, Stack, Text } from '@mantine/core';
import { IconPlugConnected } from '@tabler/icons-react';
import { useParams } from 'react-router';
import {
  detailOptions,
  isServiceProvider,
  SERVICE_DETAILS,
  SERVICE_MESSAGES,
  SERVICE_PROVIDERS,
  serviceClientIdSetting,
  type ServiceStatus,
} from '@shared/api/services';
import { ServiceConnectionDisplay } from '../fields/read-only-displays';
import type { FieldProps } from '../fields/types';
import { SettingHint, useIsWorkspaceManager } from '../setting-hint';
import { usePublicConfig } from '@web/lib/public-config';
import {
  asConnection,
  useServiceConnection,
  type Connection,
  type FieldStatus,
} from './use-service-connection';

const PROVIDER_LABELS: Record<(typeof SERVICE_PROVIDERS)[number], string> = {
  facebook: 'Facebook',
  'google-ads': 'Google Ads',
  meetup: 'Meetup',
  eventbrite: 'Eventbrite',
  linkedin: 'LinkedIn',
  x: 'X',
};

/**
 * Whether this server has the provider's client id; unknown (the public config not loaded) counts as
 * configured, and the server still refuses when it is not.
 */
function useIsProviderConfigured(provider: string | undefined): boolean {
  const { data } = usePublicConfig();
  return !provider || !data || data.providers.includes(provider);
}

const STATUS_COLORS: Record<ServiceStatus['status'], string> = {
  success: 'teal',
  warning: 'orange',
  danger: 'red',
  failed: 'red',
};

/** Authenticate before a connection exists; Re-authenticate, Check Connection and Delete Service after. */
function ServiceConnectionActions({
  connected,
  canCheck,
  busy,
  isConfigured,
  onAuthenticate,
  onCheck,
  onRemove,
}: {
  connected: boolean;
  /** The item is saved, so the server can ping its connection. */
  canCheck: boolean;
  busy: boolean;
  isConfigured: boolean;
  onAuthenticate: () => void;
  onCheck: () => void;
  onRemove: () => void;
}) {
  if (!connected)
    return (
      <Button size="xs" onClick={onAuthenticate} loading={busy} disabled={!isConfigured}>
        Authenticate
      </Button>
    );
  return (
    <>
      <Button size="xs" variant="default" onClick={onAuthenticate} loading={busy} disabled={!isConfigured}>
        Re-authenticate
      </Button>
      {canCheck && (
        <Button size="xs" variant="default" onClick={onCheck} loading={busy}>
          Check Connection
        </Button>
      )}
      <Button size="xs" color="red" variant="light" onClick={onRemove} loading={busy}>
        Delete Service
      </Button>
    </>
  );
}

/**
 * Spec §2 service connection field: pick the provider, Authenticate in a 600 × 600 pop-up (the page it
 * ends on posts `{_sign, encTokens, profile}`; messages from another origin or without the signature
 * are ignored), Re-authenticate, Delete Service, and the status of a check. Changes must still be saved.
 */
export function ServiceConnectionField(props: FieldProps) {
  const { value, onChange, readOnly } = props;
  const { workspace = '', id } = useParams();
  const connection = asConnection(value);
  const provider = connection.provider;
  const connected = typeof connection.encTokens === 'string';
  const { status, setStatus, busy, authenticate, check, remove } = useServiceConnection({
    workspace,
    id,
    value,
    onChange,
  });
  const isConfigured = useIsProviderConfigured(provider);
  const isManager = useIsWorkspaceManager();

  if (readOnly) return <ServiceConnectionDisplay {...props} />;

  const who = connection.profile?.name ?? connection.profile?.id;
  const shown: FieldStatus | null =
    !isConfigured && isServiceProvider(provider)
      ? {
          status: 'danger',
          message: SERVICE_MESSAGES.notConfigured,
          setting: { setting: serviceClientIdSetting(provider) },
        }
      : status;
  return (
    <Stack gap="xs" data-testid="service-connection">
      <Select
        id={props.inputId}
        placeholder="Pick a provider"
        data={SERVICE_PROVIDERS.map((p) => ({ value: p, label: PROVIDER_LABELS[p] }))}
        value={provider ?? null}
        onChange={(next) => {
          onChange(next ? { provider: next } : null);
          setStatus(null);
        }}
        allowDeselect={false}
        maw={320}
      />
      {connected && who !== undefined && (
        <Group gap={6}>
          <IconPlugConnected size={18} stroke={1.5} />
          <Text size="sm">Connected as {String(who)}</Text>
        </Group>
      )}
      {connected && isServiceProvider(provider) && (
        <ServiceDetails
          provider={provider}
          connection={connection}
          onChange={(details) => onChange({ ...connection, serviceDetails: details })}
        />
      )}
      {shown && (
        <Alert color={STATUS_COLORS[shown.status]} variant="light" p="xs" data-testid="service-status">
          {shown.message}
          {shown.setting && <SettingHint setting={shown.setting} isManager={isManager} />}
        </Alert>
      )}
      <Group gap="xs">
        {provider && (
          <ServiceConnectionActions
            connected={connected}
            canCheck={!!id && id !== 'new'}
            busy={busy}
            isConfigured={isConfigured}
            onAuthenticate={() => void authenticate()}
            onCheck={() => void check()}
            onRemove={() => void remove()}
          />
        )}
      </Group>
    </Stack>
  );
}

/** Service details (spec §3), each picked from the list the provider returned when connecting. */
function ServiceDetails({
  provider,
  connection,
  onChange,
}: {
  provider: (typeof SERVICE_PROVIDERS)[number];
  connection: Connection;
  onChange: (details: Record<string, unknown>) => void;
}) {
  const details = (connection.serviceDetails ?? {}) as Record<string, unknown>;
  return (
    <Group gap="xs" align="flex-end">
      {SERVICE_DETAILS[provider].map((detail) => {
        const data = detailOptions(detail, connection.profile);
        const current = details[detail.key];
        return detail.multiple ? (
          <MultiSelect
            key={detail.key}
            size="xs"
            label={detail.label}
            data={data}
            value={Array.isArray(current) ? (current as string[]) : []}
            onChange={(next) => onChange({ ...details, [detail.key]: next })}
            w={260}
          />
        ) : (
          <Select
            key={detail.key}
            size="xs"
            label={detail.label}
            data={data}
            value={typeof current === 'string' ? current : null}
            onChange={(next) => onChange({ ...details, [detail.key]: next ?? undefined })}
            placeholder={data.length === 0 ? 'None available' : 'Pick one'}
            w={220}
          />
        );
      })}
    </Group>
  );
}
