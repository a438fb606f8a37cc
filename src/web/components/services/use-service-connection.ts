import { useEffect, useState, type Dispatch, type SetStateAction } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  AUTH_MESSAGE_SIGN,
  AUTH_POPUP_SIZE,
  SERVICE_MESSAGES,
  type ServiceStatus,
} from '@shared/api/services';
import type { NotConfiguredDetails } from '@shared/api/errors';
import { settingOf } from '../setting-hint';
import { errorMessage, isApiError } from '@web/lib/api-client';
import { authUrl, checkAuthStart, deleteService, pingService } from './services-api';

export type Connection = {
  provider?: string;
  encTokens?: string;
  profile?: Record<string, unknown>;
} & Record<string, unknown>;

export const asConnection = (value: unknown): Connection =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Connection) : {};

/** What the field shows after a check or an attempt: the status, and the setting that would switch it on. */
export type FieldStatus = ServiceStatus & { setting?: NotConfiguredDetails };

/** The status an error answer means: 'Service not configured' is danger with its setting, anything else a warning. */
function statusOfError(e: unknown): FieldStatus {
  const setting = isApiError(e) && e.code === 'not_configured' ? settingOf(e) : null;
  if (setting) return { status: 'danger', message: errorMessage(e), setting };
  return { status: 'warning', message: errorMessage(e) };
}

/** Opens the provider's sign-in in a pop-up of the spec's size, centred on this window. */
function openAuthPopup(url: string) {
  const { width, height } = AUTH_POPUP_SIZE;
  const left = Math.max(0, window.screenX + (window.outerWidth - width) / 2);
  const top = Math.max(0, window.screenY + (window.outerHeight - height) / 2);
  window.open(url, 'marquee-service-auth', `width=${width},height=${height},left=${left},top=${top}`);
}

/**
 * Takes the sign-in pop-up's answer: a message from this origin carrying the signature, with the
 * encrypted tokens and profile or an error. Anything else is ignored.
 */
function useAuthPopupMessages(
  value: unknown,
  onChange: (value: unknown) => void,
  setStatus: Dispatch<SetStateAction<FieldStatus | null>>,
) {
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
  }, [onChange, value, setStatus]);
}

/**
 * The service connection field's actions: Authenticate (after asking the server whether it would
 * start), Check Connection, Delete Service; with the status they leave and whether one is running.
 */
export function useServiceConnection({
  workspace,
  id,
  value,
  onChange,
}: {
  workspace: string;
  /** The item's id, 'new' before its first save. */
  id: string | undefined;
  value: unknown;
  onChange: (value: unknown) => void;
}) {
  const [status, setStatus] = useState<FieldStatus | null>(null);
  const [busy, setBusy] = useState(false);
  const queryClient = useQueryClient();
  const provider = asConnection(value).provider;
  useAuthPopupMessages(value, onChange, setStatus);

  // A ping or a delete may save the connection as the item's next version: reload it, so a save bases on it.
  const reloadItems = () =>
    void queryClient.invalidateQueries({ queryKey: ['workspaces', workspace, 'items'] });

  const whileBusy = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } finally {
      setBusy(false);
    }
  };

  const authenticate = async () => {
    if (!provider) return;
    await whileBusy(async () => {
      const refusal = await checkAuthStart(workspace, provider);
      if (refusal) setStatus(statusOfError(refusal));
      else openAuthPopup(authUrl(workspace, provider));
    });
  };

  const check = async () => {
    if (!id) return;
    await whileBusy(async () => {
      try {
        setStatus(await pingService(workspace, id));
        reloadItems();
      } catch (e) {
        setStatus(statusOfError(e));
      }
    });
  };

  const remove = () =>
    whileBusy(async () => {
      try {
        if (id && id !== 'new') {
          await deleteService(workspace, id);
          reloadItems();
        }
        onChange({ provider });
        setStatus(null);
      } catch (e) {
        setStatus({ status: 'warning', message: errorMessage(e) });
      }
    });

  return { status, setStatus, busy, authenticate, check, remove };
}
