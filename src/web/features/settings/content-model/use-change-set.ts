import { useEffect, useMemo, useState } from 'react';
import type { ContentModelAnswer } from '@shared/api/content-model';
import type { ModelOp } from '@shared/model/types';
import {
  pendingModel,
  rebasedOps,
  withOps,
  withoutOp,
  type Outcome,
  type PendingChanges,
} from './change-set';

const storageKey = (ws: string) => `marquee:content-model-changes:${ws}`;

/** The operations kept for this tab's session on the same version of the model, so leaving the screen loses none. */
function restored(ws: string, current: ContentModelAnswer): PendingChanges | null {
  const empty = { baseVersion: current.version, base: current.model, ops: [] };
  try {
    const stored = JSON.parse(sessionStorage.getItem(storageKey(ws)) ?? 'null') as {
      baseVersion: number;
      ops: ModelOp[];
    } | null;
    if (!stored || stored.baseVersion !== current.version || !Array.isArray(stored.ops)) return null;
    const outcome = withOps(empty, stored.ops);
    return 'ops' in outcome && outcome.ops.length > 0 ? { ...empty, ops: outcome.ops } : null;
  } catch {
    return null;
  }
}

/**
 * The screen's pending change set over the model as last read: add, drop, discard, and make again on
 * a newer model. With nothing pending, the base follows the current model.
 */
export function useChangeSet(ws: string, current: ContentModelAnswer) {
  const [pending, setPending] = useState<PendingChanges | null>(() => restored(ws, current));
  const base = pending ?? { baseVersion: current.version, base: current.model, ops: [] };

  useEffect(() => {
    if (pending)
      sessionStorage.setItem(
        storageKey(ws),
        JSON.stringify({ baseVersion: pending.baseVersion, ops: pending.ops }),
      );
    else sessionStorage.removeItem(storageKey(ws));
  }, [ws, pending]);

  const model = useMemo(() => (pending ? pendingModel(pending) : current.model), [pending, current.model]);

  const settle = (outcome: Outcome): string | undefined => {
    if ('error' in outcome) return outcome.error;
    setPending(outcome.ops.length > 0 ? { ...base, ops: outcome.ops } : null);
    return undefined;
  };

  return {
    baseVersion: base.baseVersion,
    applied: base.base,
    ops: base.ops,
    model,
    /** Adds operations; answers why they cannot be made, if so. */
    add: (ops: readonly ModelOp[]) => settle(withOps(base, ops)),
    /** Drops one operation and any that depended on it; answers how many went, or why it cannot be dropped. */
    drop: (index: number): { dropped: number } | { error: string } => {
      const outcome = withoutOp(base, index);
      const error = settle(outcome);
      return error ? { error } : { dropped: 'dropped' in outcome ? outcome.dropped : 0 };
    },
    discard: () => setPending(null),
    /** The pending operations made again on a newer model; answers how many no longer applied. */
    rebase: (answer: ContentModelAnswer): number => {
      const outcome = rebasedOps(answer.model, base.ops);
      const kept = 'ops' in outcome ? outcome.ops : [];
      setPending(kept.length > 0 ? { baseVersion: answer.version, base: answer.model, ops: kept } : null);
      return base.ops.length - kept.length;
    },
  };
}
