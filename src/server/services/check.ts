import { mapNestedEntries } from '@shared/schemas/blocks';
import type { FieldDef, SchemaType } from '@shared/schemas/types';
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
 * The save rule for service connection fields (in table rows and blocks too): `encTokens`, when
 * present, must be tokens this server sealed for this workspace and the field's provider (tampered,
 * foreign or made-up values are refused with 400), and the stored `profile` is the one sealed with
 * them, whatever the client sent.
 */
function checkServiceConnections(
  secret: string,
  workspaceId: string,
  schema: SchemaType,
  data: Record<string, unknown>,
): Record<string, unknown> {
  const check = (fields: readonly FieldDef[], holder: Record<string, unknown>, prefix: string) => {
    let result = holder;
    for (const field of fields) {
      const value = holder[field.key];
      const checked =
        field.type === 'service-connection'
          ? checkConnection(secret, workspaceId, `${prefix}${field.key}`, value)
          : mapNestedEntries(field, value, schema.blockTypes, (entry) =>
              check(entry.fields, entry.data, `${prefix}${field.key}.${entry.index}.`),
            );
      if (checked !== value) result = { ...result, [field.key]: checked };
    }
    return result;
  };
  return check(schema.fields, data, '');
}

/** One service connection value as stored, or a 400 naming its `path` ('connection', 'rows.0.connection'). */
function checkConnection(secret: string, workspaceId: string, path: string, stored: unknown) {
  const value = stored as Record<string, unknown> | null | undefined;
  if (!value || typeof value !== 'object') return stored;
  if (!isServiceProvider(value.provider)) {
    throw badRequest(`${path}.provider: ${SERVICE_MESSAGES.unknownProvider}`);
  }
  if (value.encTokens === undefined || value.encTokens === null) {
    const { profile: _dropped, ...rest } = value;
    return rest;
  }
  const tokens = unsealTokens(secret, workspaceId, value.provider, value.encTokens);
  if (!tokens) throw badRequest(`${path}.encTokens: ${SERVICE_MESSAGES.foreignTokens}`);
  checkDetails(path, value.provider, value.serviceDetails, tokens.profile);
  return { ...value, profile: tokens.profile };
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
