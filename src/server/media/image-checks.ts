import type { Db } from '../db/client';
import { ReadCache } from '../db/read-cache';
import type { Change, ChangeSubscriber } from '../journal/changes';
import type { DeliveredIn } from './image-links';
import { isImageServable } from './repository';

/** The change notices' name for this cache: a write that removes a file journals `fileRemoved`. */
const IMAGE_CHECKS = 'image-checks';
/** The bound on staleness should a change notice be lost, as for the delivery cache. */
const MAX_AGE_MS = 30_000;
const MAX_ENTRIES = 10_000;

const keyOf = (workspaceId: string, storageName: string, item: DeliveredIn | undefined) =>
  [workspaceId, item?.stage ?? '', item?.schema ?? '', item?.id ?? '', storageName].join('\t');

/**
 * Whether signed image links may still load (see `isImageServable`), remembered per link target so a
 * popular image costs no query. A publish or unpublish drops the answers of its workspace's stage at
 * once (other processes hear the journal's change notices); a removed file drops its own answers.
 */
export class ImageChecks implements ChangeSubscriber {
  private readonly answers = new ReadCache<boolean>(MAX_AGE_MS, MAX_ENTRIES);

  isServable(db: Db, workspaceId: string, storageName: string, item: DeliveredIn | undefined) {
    return this.answers.get(keyOf(workspaceId, storageName, item), () =>
      isImageServable(db, workspaceId, storageName, item),
    ) as Promise<boolean>;
  }

  apply(change: Change) {
    if (change.kind === 'stage') {
      const prefix =
        change.stage === undefined ? `${change.workspaceId}\t` : `${change.workspaceId}\t${change.stage}\t`;
      this.answers.drop((key) => key.startsWith(prefix));
    } else if (change.kind === 'cache' && change.name === IMAGE_CHECKS) {
      if (change.matches) this.answers.drop(change.matches as (key: string, value: boolean) => boolean);
      else this.answers.clear();
    }
  }

  clear() {
    this.answers.clear();
  }
}

/** The change to journal with a write that removes a file: its signed links stop loading at once. */
export const fileRemoved = (workspaceId: string, storageName: string): Change => ({
  kind: 'cache',
  name: IMAGE_CHECKS,
  matches: (key: string) => key.startsWith(`${workspaceId}\t`) && key.endsWith(`\t${storageName}`),
});

const checks = new WeakMap<Db, ImageChecks>();

/** The image checks of a database (one per root database, shared by the apps built on it). */
export function imageChecksOf(db: Db): ImageChecks {
  let found = checks.get(db);
  if (!found) checks.set(db, (found = new ImageChecks()));
  return found;
}
