import { ITEM_MESSAGES, type ItemList } from '@shared/api/items';
import { editableLocales } from '@shared/permissions/permissions';
import { myApproverRoles } from '@shared/publishing/approvals';
import { agingCutoff, parseSavedView, type SavedViewQuery } from '@shared/publishing/saved-views';
import { findStage } from '@shared/publishing/status';
import { itemDataSchema } from '@shared/schemas/zod';
import type { SchemaType } from '@shared/schemas/types';
import { VARIATION_KEY } from '@shared/schemas/types';
import { decideSave } from '@shared/validation/form-actions';
import { itemDataLimitError } from '@shared/validation/value-limits';
import { validateLocalizedItem } from '@shared/locales/validate';
import type { AppContext } from '../context';
import { AppError, badRequest, conflict, notFound } from '../http/errors';
import { randomId } from '../lib/ids';
import type { WorkspaceAccess } from '../workspaces/access';
import { presentItem, presentItems } from './present';
import { buildReferences } from './references';
import { insertionRuleErrors } from './insertion-rules';
import { listNear } from './list-near';
import { normaliseLocaleSlugs, requireLocaleRights } from './locales';
import { missingFilter } from './missing-in-locale';
import { normaliseNameSlugs } from './name-slugs';
import * as repo from './repository';
import { runSaveHooks } from './save-hooks';
import { searchTextOf } from './search-text';
import { dataInCallersModel, upcastItemRow } from './upcast';
import { takeFileFacts } from './server-owned';
import type { AuditAction } from '@shared/api/delivery';
import { actorOf } from '../journal/journal';
import { enabledSchemas, requireRight, schemaIn, type SchemaScope } from './scope';

export const keyOf = (scope: SchemaScope, id: string): repo.ItemKey => ({
  workspaceId: scope.workspace.id,
  schema: scope.schema.name,
  id,
});

/** The columns naming an item in tables about items (history, comments, approvals). */
export const versionKey = (key: repo.ItemKey) => ({
  workspaceId: key.workspaceId,
  schema: key.schema,
  itemId: key.id,
});

const dataSchemas = new WeakMap<SchemaType, ReturnType<typeof itemDataSchema>>();
/** Building a schema's zod type costs about 100 times a parse: build it once per schema. */
function dataSchemaOf(schema: SchemaType) {
  let zodType = dataSchemas.get(schema);
  if (!zodType) dataSchemas.set(schema, (zodType = itemDataSchema(schema)));
  return zodType;
}

/** A zod issue path as the field it names: data.images.0.schemaType. */
function fieldPath(path: readonly PropertyKey[]) {
  return ['data', ...path.map(String)].join('.');
}

/**
 * The data of a save, checked: its depth and size before anything recursive reads it, its shape by
 * the schema's zod type (400 naming the field), server-owned values taken from the server's records,
 * name-slugs normalised, then the form rules of spec §5 (400 'Please fix validation errors before
 * saving' with the field errors, unless the schema allows saving with errors: then it is stored with
 * hasErrors). `id` names the item being saved (none for a new one).
 */
export async function checkItemData(
  ctx: AppContext,
  scope: SchemaScope,
  input: Record<string, unknown>,
  id?: string,
) {
  const schema = scope.schema;
  const tooBig = itemDataLimitError(input);
  if (tooBig) throw badRequest(`${fieldPath(tooBig.field ? [tooBig.field] : [])}: ${tooBig.message}`);
  const parsed = dataSchemaOf(schema).safeParse(input);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => ({
      path: fieldPath(issue.path),
      message: issue.message,
    }));
    throw badRequest(`${issues[0].path}: ${issues[0].message}`, { issues });
  }
  const owned = normaliseLocaleSlugs(schema, await normaliseNameSlugs(ctx, scope, parsed.data, id));
  await takeFileFacts(ctx, scope.workspace.id, schema, owned);
  // Field types that need the server (service connections, addresses, rich text, email templates,
  // criteria) check and complete the data through the hooks app.ts registers, in its order.
  const data = await runSaveHooks(ctx, scope, owned, id);
  const insertion = await insertionRuleErrors(ctx, scope, data);
  if (Object.keys(insertion).length > 0) {
    throw new AppError('validation_failed', Object.values(insertion)[0], { errors: insertion });
  }
  const errors = validateLocalizedItem(schema, data);
  const decision = decideSave(errors, schema.allowSaveWithErrors);
  if (!decision.allowed) throw new AppError('validation_failed', decision.message, { errors });
  const variation = data[VARIATION_KEY];
  return {
    data,
    refs: buildReferences(schema, data, ctx.itemFieldReaders),
    searchText: searchTextOf(schema, data, ctx.itemFieldReaders),
    hasErrors: decision.hasErrors,
    modelVersion: scope.model.version,
    variation: variation && typeof variation === 'object' ? (variation as Record<string, string>) : null,
  };
}

/** How a write is audited: its action and what the entry adds to the version. */
interface ItemAudit {
  action: AuditAction;
  detail?: Record<string, unknown>;
}

/** Creates an item at version 1 with its first history version, in one statement (one transaction). */
export async function createItem(
  ctx: AppContext,
  scope: SchemaScope,
  data: Record<string, unknown>,
  audit: ItemAudit = { action: 'item.created' },
) {
  requireRight(scope, 'edit');
  const patch = await firstVersionOf(ctx, scope, data);
  requireLocaleRights(scope, {}, patch.data);
  for (let attempt = 0; attempt < 3; attempt++) {
    const row = await insertFirstVersion(ctx, scope, randomId(20), patch, audit);
    if (row) return row;
  }
  throw conflict('Could not find a free id for the new item; try again');
}

/**
 * Creates an item under an id the caller chooses, unless an item of the schema has that id already
 * (answers undefined then, writing nothing): what lets concurrent callers create a built-in item once.
 */
export async function createItemWithId(
  ctx: AppContext,
  scope: SchemaScope,
  id: string,
  data: Record<string, unknown>,
) {
  requireRight(scope, 'edit');
  const patch = await firstVersionOf(ctx, scope, data);
  requireLocaleRights(scope, {}, patch.data);
  return insertFirstVersion(ctx, scope, id, patch);
}

async function firstVersionOf(ctx: AppContext, scope: SchemaScope, data: Record<string, unknown>) {
  const checked = await checkItemData(ctx, scope, data);
  return { ...checked, lastWrittenBy: scope.user.id, lastWrittenAt: new Date() };
}

const insertFirstVersion = (
  ctx: AppContext,
  scope: SchemaScope,
  id: string,
  patch: repo.ItemPatch,
  audit: ItemAudit = { action: 'item.created' },
) =>
  repo.insertFirstVersion(ctx.db, keyOf(scope, id), patch, {
    audit: { ...audit, user: actorOf(scope) },
    event: 'item.saved',
  });

/**
 * Saves the next version of an item: version + 1, approvals start over, a history row with the full
 * data, and stage copies told of the new version; all in one statement, so one transaction. A stale
 * base version answers 409 and changes nothing.
 */
export async function updateItem(
  ctx: AppContext,
  scope: SchemaScope,
  id: string,
  data: Record<string, unknown>,
  baseVersion: number | undefined,
  audit: ItemAudit = { action: 'item.saved' },
  modelVersion?: number,
) {
  requireRight(scope, 'edit');
  const key = keyOf(scope, id);
  const sent = await dataInCallersModel(ctx.db, scope, data, modelVersion);
  const checked = await checkItemData(ctx, scope, sent, id);
  if (editableLocales(scope.permissions, scope.schema.name)) {
    const stored = await upcastItemRow(ctx.db, scope, await repo.findItem(ctx.db, key));
    if (!stored) throw notFound(ITEM_MESSAGES.instanceNotFound);
    requireLocaleRights(scope, stored.data, checked.data);
  }
  const row = await repo.saveNextVersion(
    ctx.db,
    key,
    baseVersion,
    { ...checked, lastWrittenBy: scope.user.id, lastWrittenAt: new Date() },
    { audit: { ...audit, user: actorOf(scope) }, event: 'item.saved' },
  );
  if (row) return row;
  const current = await repo.findItem(ctx.db, key);
  if (!current) throw notFound(ITEM_MESSAGES.instanceNotFound);
  throw conflict(ITEM_MESSAGES.staleVersion, { version: current.version, baseVersion });
}

/**
 * Item JSON of a row the caller just wrote: a new item (version 1, fresh id) has no stage copies yet, a
 * save answers its copies; a version just written has no approvals yet. Rows without copies (a restore
 * through another path) read them.
 */
export const presentWritten = (
  ctx: AppContext,
  scope: SchemaScope,
  row: repo.ItemRow & { copies?: repo.ItemCopy[] },
) => {
  const { copies, ...item } = row;
  return presentItem(ctx.db, scope, {
    item,
    writerName: scope.member.displayName,
    ...(copies ? { copies, approvals: [] } : row.version === 1 ? { copies: [], approvals: [] } : {}),
  });
};

/** One item; any member may read (spec §6: read-only without edit rights). */
export async function getItem(ctx: AppContext, scope: SchemaScope, id: string) {
  const row = await repo.findItemWithWriter(ctx.db, keyOf(scope, id));
  if (!row) throw notFound(ITEM_MESSAGES.instanceNotFound);
  return presentItem(ctx.db, scope, row);
}

/** The item row in the caller's model version, or 404 'Instance not found'. */
export async function requireItem(ctx: AppContext, scope: SchemaScope, id: string) {
  const row = await upcastItemRow(ctx.db, scope, await repo.findItem(ctx.db, keyOf(scope, id)));
  if (!row) throw notFound(ITEM_MESSAGES.instanceNotFound);
  return row;
}

function encodeCursor(cursor: repo.Cursor) {
  return Buffer.from(JSON.stringify([cursor.at, cursor.id])).toString('base64url');
}

/**
 * The instants a cursor may carry: the ISO form `encodeCursor` writes, years 0001 to 9999. JavaScript
 * reads far more (year -10000, +275000) than PostgreSQL stores, and such a date would fail in SQL.
 */
const CURSOR_INSTANT = /^(?!0000)\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function decodeCursor(text: string): repo.Cursor {
  try {
    const [at, id] = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown[];
    if (
      typeof at === 'string' &&
      CURSOR_INSTANT.test(at) &&
      !Number.isNaN(Date.parse(at)) &&
      typeof id === 'string' &&
      id.length <= 64
    ) {
      return { at: new Date(at).toISOString(), id };
    }
  } catch {
    // answered below
  }
  throw badRequest(ITEM_MESSAGES.invalidCursor);
}

/** The stage value a label or value names in this workspace, or 404. */
export function resolveStage(access: WorkspaceAccess, stage: string) {
  const value = findStage(access.workspace.basics.stages, stage);
  if (!value) throw notFound(`Stage "${stage}" not found in this workspace`);
  return value;
}

function filterOf(
  access: WorkspaceAccess,
  view: SavedViewQuery,
  schemas: readonly string[],
  now: Date,
): repo.ItemFilter {
  switch (view.viewId) {
    case 'all':
      return { kind: 'all' };
    case 'last-updated-by-me':
      return { kind: 'written-by', userId: access.user.id };
    case 'scheduled':
      return { kind: 'scheduled' };
    case 'need-my-approval': {
      const groups = new Map<string, { schemas: string[]; roleIds: string[] }>();
      for (const schema of schemas) {
        const roleIds = myApproverRoles(access.workspace.roles, schema, access.permissions.roles);
        if (roleIds.length === 0) continue;
        const group = groups.get(roleIds.join(',')) ?? { schemas: [], roleIds };
        group.schemas.push(schema);
        groups.set(roleIds.join(','), group);
      }
      return { kind: 'awaiting', groups: [...groups.values()] };
    }
    case 'published-in':
    case 'outdated-in':
    case 'aging-in':
      return {
        kind: 'stage',
        stage: resolveStage(access, view.stage),
        only:
          view.viewId === 'published-in' ? 'published' : view.viewId === 'outdated-in' ? 'outdated' : 'aging',
        before: agingCutoff(now),
      };
  }
}

/**
 * A keyset page of a saved view, of one schema or of every schema of the enabled domains, newest write
 * first (stage views: newest publish first).
 */
export async function listItems(
  ctx: AppContext,
  access: WorkspaceAccess,
  schemaName: string | undefined,
  query: {
    view: string;
    stage?: string;
    cursor?: string;
    limit: number;
    q?: string;
    near?: string;
    radiusKm?: number;
    missing?: string;
  },
): Promise<ItemList> {
  const schemas = schemaName
    ? [schemaIn(access, schemaName).schema.name]
    : enabledSchemas(access).map((s) => s.name);
  const view = parseSavedView(query.view, query.stage);
  if (!view) {
    throw badRequest(
      query.stage || !/-in$/.test(query.view)
        ? `Unknown view "${query.view}"`
        : `The view "${query.view}" needs a stage`,
    );
  }
  const filter = filterOf(access, view, schemas, new Date());
  if (query.near !== undefined) return listNear(ctx, access, { ...query, near: query.near, schemas, filter });
  const cursor = query.cursor ? decodeCursor(query.cursor) : undefined;
  if (schemas.length === 0) return { items: [], nextCursor: null };
  const rows = await repo.listItems(ctx.db, {
    workspaceId: access.workspace.id,
    schemas,
    filter,
    cursor,
    limit: query.limit,
    search: query.q || undefined,
    missingIn: query.missing === undefined ? undefined : missingFilter(access, schemaName, query.missing),
  });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    items: await presentItems(ctx.db, access, page),
    nextCursor:
      rows.length > query.limit && last
        ? encodeCursor({ at: last.sortAt.toISOString(), id: last.item.id })
        : null,
  };
}
