import { isLocalized } from '@shared/locales/locales';
import { badRequest } from '../http/errors';
import type { WorkspaceAccess } from '../workspaces/access';
import { schemaIn } from './scope';

/** `?missing={locale}` of a schema's list: its localised fields, in a locale of the workspace other than the default. */
export function missingFilter(access: WorkspaceAccess, schemaName: string | undefined, locale: string) {
  if (!schemaName) throw badRequest("missing: applies to one schema's list");
  const { schema } = schemaIn(access, schemaName);
  if (!schema.locales) throw badRequest('missing: this workspace has no localised fields here');
  if (!schema.locales.others.includes(locale)) {
    throw badRequest(`missing: choose one of ${schema.locales.others.join(', ') || 'the other locales'}`);
  }
  return { locale, keys: schema.fields.filter(isLocalized).map((field) => field.key) };
}
