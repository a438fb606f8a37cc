import { useEffect, useMemo, useRef, useState } from 'react';
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

/** Operations kept for this tab's session, so leaving the screen does not lose them. */
function storedOps(ws: string, version: number): ModelOp[] | undefined {
  try {
    const stored = JSON.parse(sessionStorage.getItem(storageKey(ws)) ?? 'null') as {
      baseVersion: number;
      ops: ModelOp[];
    } | null;
    return stored && stored.baseVersion === version && Array.isArray(stored.ops) ? stored.ops : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The screen's pending change set over the model as last read: add, drop, discard, and make again on
 * a newer model. With nothing pending, the base follows the model read.
 */
export function useChangeSet(ws: string, current: ContentModelAnswer | undefined) {
  const [pending, setPending] = useState<PendingChanges | null>(null);
  const hasRestored = useRef(false);
  const base =
    pending ?? (current ? { baseVersion: current.version, base: current.model, ops: [] } : undefined);

  // Pending operations of an earlier visit to this screen, on the same version of the model.
  useEffect(() => {
    if (!current || hasRestored.current) return;
    hasRestored.current = true;
    const ops = storedOps(ws, current.version);
    const outcome =
      ops && ops.length > 0
        ? withOps({ baseVersion: current.version, base: current.model, ops: [] }, ops)
        : undefined;
    if (outcome && 'ops' in outcome)
      setPending({ baseVersion: current.version, base: current.model, ops: outcome.ops });
  }, [ws, current]);

  useEffect(() => {
    if (pending && pending.ops.length > 0)
      sessionStorage.setItem(
        storageKey(ws),
        JSON.stringify({ baseVersion: pending.baseVersion, ops: pending.ops }),
      );
    else sessionStorage.removeItem(storageKey(ws));
  }, [ws, pending]);

  const model = useMemo(
    () => (base && base.ops.length > 0 ? pendingModel(base) : base?.base),
    // The base object is made again on every render while nothing is pending; its parts are what count.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [base?.base, base?.ops],
  );

  const settle = (outcome: Outcome): string | undefined => {
    if ('error' in outcome) return outcome.error;
    setPending(outcome.ops.length > 0 ? { ...base!, ops: outcome.ops } : null);
    return undefined;
  };

  return {
    baseVersion: base?.baseVersion ?? 0,
    applied: base?.base,
    ops: base?.ops ?? [],
    model,
    /** Adds operations; answers why they cannot be made, if so. */
    add: (ops: readonly ModelOp[]) => (base ? settle(withOps(base, ops)) : 'The model is still loading'),
    /** Drops one operation and any that depended on it; answers how many went, or why it cannot be dropped. */
    drop: (index: number): { dropped: number } | { error: string } => {
      const outcome = withoutOp(base!, index);
      const error = settle(outcome);
      return error ? { error } : { dropped: 'dropped' in outcome ? outcome.dropped : 0 };
    },
    discard: () => setPending(null),
    /** The pending operations made again on a newer model; answers how many no longer applied. */
    rebase: (answer: ContentModelAnswer): number => {
      const ops = base?.ops ?? [];
      const outcome = rebasedOps(answer.model, ops);
      const kept = 'ops' in outcome ? outcome.ops : [];
      setPending(kept.length > 0 ? { baseVersion: answer.version, base: answer.model, ops: kept } : null);
      return ops.length - kept.length;
    },
  };
}
