import { eq } from 'drizzle-orm';
import type { LocaleSettings } from '@shared/locales/locales';
import type { Db } from '../db/client';
import { workspaces } from '../db/schema';
import type { Change, ChangeSubscriber } from '../journal/changes';

/** The bound on staleness should a change notice be lost, as for delivered answers. */
const MAX_AGE_MS = 30_000;
const MAX_WORKSPACES = 10_000;

/**
 * Each workspace's locale settings as `?locale=` reads them, kept so a localised read costs no extra
 * query. A change of a workspace's locales journals a change of all its stages, which drops its entry
 * here (in every process); a read that overlapped a change is not kept.
 */
export class LocaleSettingsCache implements ChangeSubscriber {
  private readonly kept = new Map<string, { settings: LocaleSettings | null; until: number }>();
  private changes = 0;

  async settingsOf(readDb: Db, workspaceId: string): Promise<LocaleSettings | undefined> {
    const entry = this.kept.get(workspaceId);
    if (entry && entry.until > Date.now()) return entry.settings ?? undefined;
    const changesBefore = this.changes;
    const [row] = await readDb
      .select({ basics: workspaces.basics })
      .from(workspaces)
      .where(eq(workspaces.id, workspaceId))
      .limit(1);
    const settings = row?.basics.locales;
    if (this.changes === changesBefore) {
      if (this.kept.size >= MAX_WORKSPACES) this.kept.clear();
      this.kept.set(workspaceId, { settings: settings ?? null, until: Date.now() + MAX_AGE_MS });
    }
    return settings;
  }

  apply(change: Change) {
    if (change.kind !== 'stage' || change.stage !== undefined) return;
    this.changes++;
    this.kept.delete(change.workspaceId);
  }

  clear() {
    this.changes++;
    this.kept.clear();
  }
}

const caches = new WeakMap<Db, LocaleSettingsCache>();

/** The locale settings cache of a database (one per root database, like the delivery cache). */
export function localeSettingsCacheOf(db: Db): LocaleSettingsCache {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new LocaleSettingsCache()));
  return cache;
}
