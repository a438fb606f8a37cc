import type { SchemaType } from '@shared/schemas/types';
import {
  detailOptions,
  isServiceProvider,
  SERVICE_DETAILS,
  SERVICE_MESSAGES,
  type ServiceProvider,
} from '@shared/api/services';
import { badRequest } from '../http/errors';
import type { ItemSaveHook } from '../items/save-hooks';
import { unsealTokens } from './sealing';

/**
 * The save rule for service connection fields: `encTokens`, when present, must be tokens this
 * server sealed for this workspace and the field's provider (tampered, foreign or made-up values are
 * refused with 400), and the stored `profile` is the one sealed with them, whatever the client sent.
 */
function checkServiceConnections(
  secret: string,
  workspaceId: string,
  schema: SchemaType,
  data: Record<string, unknown>,
): Record<string, unknown> {
  let result = data;
  for (const field of schema.fields) {
    if (field.type !== 'service-connection') continue;
    const value = data[field.key] as Record<string, unknown> | null | undefined;
    if (!value || typeof value !== 'object') continue;
    if (!isServiceProvider(value.provider)) {
      throw badRequest(`${field.key}.provider: ${SERVICE_MESSAGES.unknownProvider}`);
    }
    if (value.encTokens === undefined || value.encTokens === null) {
      const { profile: _dropped, ...rest } = value;
      result = { ...result, [field.key]: rest };
      continue;
    }
    const tokens = unsealTokens(secret, workspaceId, value.provider, value.encTokens);
    if (!tokens) throw badRequest(`${field.key}.encTokens: ${SERVICE_MESSAGES.foreignTokens}`);
    checkDetails(field.key, value.provider, value.serviceDetails, tokens.profile);
    result = { ...result, [field.key]: { ...value, profile: tokens.profile } };
  }
  return result;
}

/** Each service detail that is set must be one the provider listed when connecting (sealed in the profile). */
function checkDetails(key: string, provider: ServiceProvider, details: unknown, profile: unknown) {
  if (!details || typeof details !== 'object') return;
  for (const detail of SERVICE_DETAILS[provider]) {
    const value = (details as Record<string, unknown>)[detail.key];
    if (value === undefined || value === null) continue;
    const allowed = new Set(detailOptions(detail, profile).map((option) => option.value));
    const values = Array.isArray(value) ? value : [value];
    const stranger = values.find((v) => typeof v !== 'string' || !allowed.has(v));
    if (stranger !== undefined) {
      throw badRequest(
        `${key}.serviceDetails.${detail.key}: ${SERVICE_MESSAGES.unknownDetail(detail.label, String(stranger))}`,
      );
    }
  }
}

/** Service connections keep only encTokens this server sealed for this workspace. */
export const checkServiceConnectionsOnSave: ItemSaveHook = (ctx, scope, data) =>
  checkServiceConnections(ctx.config.secret, scope.workspace.id, scope.schema, data);
