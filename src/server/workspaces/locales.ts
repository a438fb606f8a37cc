import { eq, sql } from 'drizzle-orm';
import type { Basics } from '@shared/api/workspaces';
import { localeMessages, localeSettingsError, type LocaleSettings } from '@shared/locales/locales';
import { ownValue } from '@shared/text/reserved-names';
import type { Roles } from '@shared/permissions/permissions';
import type { ContentModel } from '@shared/model/registry';
import type { Db } from '../db/client';
import { items } from '../db/schema';
import { badRequest } from '../http/errors';

async function hasItems(db: Db, workspaceId: string) {
  const found = await db
    .select({ one: sql<number>`1` })
    .from(items)
    .where(eq(items.workspaceId, workspaceId))
    .limit(1);
  return found.length > 0;
}

/**
 * Checks a save's locale settings against the workspace's: well formed (400 naming what is wrong: an
 * unknown tag, a default not listed, a fallback cycle, a field that cannot be localised); a locale
 * removed only when the save confirms it (its values stay in the items' history and stored data); the
 * default locale kept once the workspace has content, because its values sit where single values do.
 */
export async function checkLocaleChange(
  db: Db,
  model: ContentModel,
  workspaceId: string,
  current: Basics,
  next: Basics,
  confirmed: readonly string[] = [],
) {
  const settings = next.locales;
  if (!settings) {
    if (current.locales)
      throw badRequest('Locales cannot be switched off once set: remove all but one instead');
    return;
  }
  const error = localeSettingsError(settings, (name) => model.schema(name));
  if (error) throw badRequest(`basics.locales: ${error}`);
  const before = current.locales;
  if (!before) return;
  const removed = before.tags.filter((tag) => !settings.tags.includes(tag));
  const unconfirmed = removed.filter((tag) => !confirmed.includes(tag));
  if (unconfirmed.length > 0) throw badRequest(localeMessages.removalNeedsConfirmation(unconfirmed));
  if (before.default !== settings.default && (await hasItems(db, workspaceId))) {
    throw badRequest(`basics.locales: ${localeMessages.defaultChanged}`);
  }
}

/**
 * Each role's locales are the workspace's (400 naming the first that is not). A locale since removed
 * that the role already held may stay, so that its other changes can be saved: it grants nothing.
 */
export function checkRoleLocales(roles: Roles, stored: Roles, settings: LocaleSettings | undefined) {
  for (const [id, role] of Object.entries(roles)) {
    const held = ownValue(stored, id)?.locales ?? [];
    for (const tag of role.locales ?? []) {
      if (settings?.tags.includes(tag) || held.includes(tag)) continue;
      const message = settings ? localeMessages.notListed(tag) : localeMessages.noLocales;
      throw badRequest(`roles.${id}.locales: ${message}`);
    }
  }
}
