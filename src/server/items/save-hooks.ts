import type { AppContext } from '../context';
import type { SchemaScope } from './scope';

/**
 * What a field type that needs the server on save does to an item's data: answers the data to store
 * (sanitised, sealed, completed) or throws a 4xx naming the field. Registered when the app is built
 * (app.ts), so items imports none of the field types' modules.
 */
export type ItemSaveHook = (
  ctx: AppContext,
  scope: SchemaScope,
  data: Record<string, unknown>,
  /** The item being saved; none for a new one. */
  id: string | undefined,
) => Record<string, unknown> | Promise<Record<string, unknown>>;

declare module '../context' {
  interface AppContext {
    /** The field types' save hooks, run in this order by every item save. */
    itemSaveHooks: readonly ItemSaveHook[];
  }
}

/** The data after every registered save hook, each reading what the one before answered. */
export async function runSaveHooks(
  ctx: AppContext,
  scope: SchemaScope,
  data: Record<string, unknown>,
  id: string | undefined,
) {
  let result = data;
  for (const hook of ctx.itemSaveHooks) result = await hook(ctx, scope, result, id);
  return result;
}
