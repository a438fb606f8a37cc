import { useEffect, useState } from 'react';
import { Alert, Button, Group, MultiSelect, Select, Stack, Text } from '@mantine/core';
import { IconPlugConnected } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useParams } from 'react-router';
import {
  AUTH_MESSAGE_SIGN,
  AUTH_POPUP_SIZE,
  detailOptions,
  isServiceProvider,
  SERVICE_DETAILS,
  SERVICE_MESSAGES,
  SERVICE_PROVIDERS,
  serviceClientIdSetting,
  type ServiceStatus,
} from '@shared/api/services';
import type { NotConfiguredDetails } from '@shared/api/errors';
import { ServiceConnectionDisplay } from '../fields/read-only-displays';
import type { FieldProps } from '../fields/types';
import { SettingHint, settingOf, useIsWorkspaceManager } from '../setting-hint';
import { errorMessage, isApiError } from '@web/lib/api-client';
import { usePublicConfig } from '@web/lib/public-config';
import { authUrl, checkAuthStart, deleteService, pingService } from './services-api';

const PROVIDER_LABELS: Record<(typeof SERVICE_PROVIDERS)[number], string> = {
  facebook: 'Facebook',
  'google-ads': 'Google Ads',
  meetup: 'Meetup',
  eventbrite: 'Eventbrite',
  linkedin: 'LinkedIn',
  x: 'X',
};

type Connection = { provider?: string; encTokens?: string; profile?: Record<string, unknown> } & Record<
  string,
  unknown
>;

const asConnection = (value: unknown): Connection =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Connection) : {};

/** What the field shows after a check or an attempt: the status, and the setting that would switch it on. */
type FieldStatus = ServiceStatus & { setting?: NotConfiguredDetails };

/** The status an error answer means: 'Service not configured' is danger with its setting, anything else a warning. */
function statusOfError(e: unknown): FieldStatus {
  const setting = isApiError(e) && e.code === 'not_configured' ? settingOf(e) : null;
  if (setting) return { status: 'danger', message: errorMessage(e), setting };
  return { status: 'warning', message: errorMessage(e) };
}

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
  const [status, setStatus] = useState<FieldStatus | null>(null);
  const [busy, setBusy] = useState(false);
  const queryClient = useQueryClient();
  const isConfigured = useIsProviderConfigured(provider);
  const isManager = useIsWorkspaceManager();

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin) return;
      const data = event.data as {
        _sign?: unknown;
        encTokens?: unknown;
        profile?: unknown;
        error?: unknown;
      } | null;
      if (!data || data._sign !== AUTH_MESSAGE_SIGN) return;
      if (typeof data.error === 'string') {
        setStatus({ status: 'warning', message: data.error });
        return;
      }
      if (typeof data.encTokens !== 'string') return;
      onChange({
        ...asConnection(value),
        encTokens: data.encTokens,
        profile: data.profile,
        serviceStatus: 'connected',
      });
      setStatus({ status: 'success', message: SERVICE_MESSAGES.connected });
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [onChange, value]);

  if (readOnly) return <ServiceConnectionDisplay {...props} />;

  const authenticate = async () => {
    if (!provider) return;
    setBusy(true);
    try {
      const refusal = await checkAuthStart(workspace, provider);
      if (refusal) {
        setStatus(statusOfError(refusal));
        return;
      }
      const { width, height } = AUTH_POPUP_SIZE;
      const left = Math.max(0, window.screenX + (window.outerWidth - width) / 2);
      const top = Math.max(0, window.screenY + (window.outerHeight - height) / 2);
      window.open(
        authUrl(workspace, provider),
        'marquee-service-auth',
        `width=${width},height=${height},left=${left},top=${top}`,
      );
    } finally {
      setBusy(false);
    }
  };

  const check = async () => {
    if (!id) return;
    setBusy(true);
    try {
      setStatus(await pingService(workspace, id));
      // A ping that refreshed expired tokens saved them as the item's next version: reload it.
      void queryClient.invalidateQueries({ queryKey: ['workspaces', workspace, 'items'] });
    } catch (e) {
      setStatus(statusOfError(e));
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    setBusy(true);
    try {
      if (id && id !== 'new') {
        // The server saved the cleared connection as the item's next version: reload it, so a save bases on it.
        await deleteService(workspace, id);
        void queryClient.invalidateQueries({ queryKey: ['workspaces', workspace, 'items'] });
      }
      onChange({ provider });
      setStatus(null);
    } catch (e) {
      setStatus({ status: 'warning', message: errorMessage(e) });
    } finally {
      setBusy(false);
    }
  };

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
        {provider && !connected && (
          <Button size="xs" onClick={authenticate} loading={busy} disabled={!isConfigured}>
            Authenticate
          </Button>
        )}
        {provider && connected && (
          <>
            <Button
              size="xs"
              variant="default"
              onClick={authenticate}
              loading={busy}
              disabled={!isConfigured}
            >
              Re-authenticate
            </Button>
            {id && id !== 'new' && (
              <Button size="xs" variant="default" onClick={check} loading={busy}>
                Check Connection
              </Button>
            )}
            <Button size="xs" color="red" variant="light" onClick={remove} loading={busy}>
              Delete Service
            </Button>
          </>
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
