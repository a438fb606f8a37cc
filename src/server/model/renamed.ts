import type { ContentModelDoc, ModelOp, RenamedField } from '@shared/model/types';

/** How long the delivery API answers a renamed field under its old name too. */
const RENAME_ALIAS_DAYS = 30;

/**
 * The renamed fields whose old names a model version keeps answering: those of the version before that
 * are still due, followed through this change's renames (a renamed-again field keeps its first name
 * too), plus this change's renames for the next 30 days. An old name that is a field again, or whose
 * field is gone, is no alias any more.
 */
export function renamedAfter(
  before: readonly RenamedField[],
  ops: readonly ModelOp[],
  next: ContentModelDoc,
  at: Date,
): RenamedField[] {
  const now = at.toISOString();
  const until = new Date(at.getTime() + RENAME_ALIAS_DAYS * 86_400_000).toISOString();
  let aliases = before.filter((alias) => alias.until > now).map((alias) => ({ ...alias }));
  for (const op of ops) {
    if (op.op !== 'renameField' || op.schema === undefined || op.table !== undefined) continue;
    for (const alias of aliases) if (alias.schema === op.schema && alias.to === op.from) alias.to = op.to;
    aliases = aliases.filter((alias) => !(alias.schema === op.schema && alias.from === op.to));
    aliases.push({ schema: op.schema, from: op.from, to: op.to, until });
  }
  const keysOf = new Map(
    next.domains.flatMap((domain) =>
      domain.schemas.map(
        (schema) => [schema.name, new Set(schema.fields.map((field) => field.key))] as const,
      ),
    ),
  );
  return aliases.filter((alias) => {
    const keys = keysOf.get(alias.schema);
    return keys !== undefined && keys.has(alias.to) && !keys.has(alias.from);
  });
}
