import { generateTypes } from '@shared/schemas/typegen';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreatedItem,
  DeletedItem,
  FunQuery,
  Item,
  ItemId,
  ItemList,
  ListItemsQuery,
  SaveItemBody,
  SchemaName,
} from '@shared/api/items';
import type { AppContext } from '../context';
import { deleteItem } from './delete-item';
import { duplicateItem } from './duplicate-item';
import { badRequest } from '../http/errors';
import { stringifyStored } from '../http/json-output';
import { WorkspaceParams } from '../workspaces/workspace-scope';
import { schemaIn } from './scope';
import * as items from './service';

const SchemaParams = WorkspaceParams.extend({ schema: SchemaName });
export const ItemParams = SchemaParams.extend({ id: ItemId });
const FunSchemaParams = z.object({ schema: SchemaName });
const FunItemParams = z.object({ schema: SchemaName, id: ItemId });

/** An item's path under the workspace scope. */
export const ITEM_PATH = '/items/:schema/:id';

/**
 * Item JSON is built field by field by presentItems from typed rows (TypeScript holds it to the Item
 * type), so these routes skip zod's re-validation of every item on the way out; the zod schemas still
 * validate requests and document the responses in OpenAPI. Data stored before the depth limits could
 * nest too deep for JSON.stringify: it is cut rather than failing the whole page.
 */
const presentedJson = { serializerCompiler: () => (data: unknown) => stringifyStored(data) };

/** The version a save is based on: `If-Match: 3` (or `"3"`) and/or `baseVersion` in the body. */
export function baseVersionOf(
  request: FastifyRequest,
  bodyBaseVersion: number | undefined,
): number | undefined {
  const header = request.headers['if-match'];
  if (header === undefined) return bodyBaseVersion;
  const match = /^(?:W\/)?"?(\d{1,9})"?$/.exec(String(header).trim());
  if (!match) throw badRequest('If-Match must name the version the edit is based on, e.g. If-Match: 3');
  const version = Number(match[1]);
  if (bodyBaseVersion !== undefined && bodyBaseVersion !== version) {
    throw badRequest('If-Match and baseVersion name different versions');
  }
  return version;
}

/** `/api/v1/workspaces/{ws}/items…`, under the workspace scope: list, create, read, save and delete items. */
export async function itemRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['items'];

  app.get(
    '/items',
    {
      ...presentedJson,
      schema: {
        tags,
        description: 'A page of a saved view over every schema of the enabled domains',
        params: WorkspaceParams,
        querystring: ListItemsQuery,
        response: { 200: ItemList },
      },
    },
    async (request) => items.listItems(ctx, request.access, undefined, request.query),
  );

  app.get(
    '/items/:schema',
    {
      ...presentedJson,
      schema: {
        tags,
        description: 'A page of the items of one schema, in a saved view (default all), newest write first',
        params: SchemaParams,
        querystring: ListItemsQuery,
        response: { 200: ItemList },
      },
    },
    async (request) => items.listItems(ctx, request.access, request.params.schema, request.query),
  );

  app.post(
    '/items/:schema',
    { ...presentedJson, schema: { tags, params: SchemaParams, body: SaveItemBody, response: { 201: Item } } },
    async (request, reply) => {
      const scope = schemaIn(request.access, request.params.schema);
      const row = await items.createItem(ctx, scope, request.body.data);
      return reply
        .code(201)
        .header('etag', `"${row.version}"`)
        .send(await items.presentWritten(ctx, scope, row));
    },
  );

  app.get(
    ITEM_PATH,
    { ...presentedJson, schema: { tags, params: ItemParams, response: { 200: Item } } },
    async (request, reply) => {
      const scope = schemaIn(request.access, request.params.schema);
      const item = await items.getItem(ctx, scope, request.params.id);
      return reply.header('etag', `"${item.version}"`).send(item);
    },
  );

  app.put(
    ITEM_PATH,
    {
      ...presentedJson,
      schema: {
        tags,
        description: 'Saves the next version; If-Match or baseVersion naming a stale version answers 409',
        params: ItemParams,
        body: SaveItemBody,
        response: { 200: Item },
      },
    },
    async (request, reply) => {
      const scope = schemaIn(request.access, request.params.schema);
      const base = baseVersionOf(request, request.body.baseVersion);
      const { data, modelVersion } = request.body;
      const row = await items.updateItem(ctx, scope, request.params.id, data, base, undefined, modelVersion);
      return reply.header('etag', `"${row.version}"`).send(await items.presentWritten(ctx, scope, row));
    },
  );

  await duplicateRoute(instance, ctx);

  app.delete(
    ITEM_PATH,
    {
      schema: {
        tags,
        description: 'Deletes the item and its stage copies; its history stays',
        params: ItemParams,
        response: { 200: DeletedItem },
      },
    },
    async (request) => deleteItem(ctx, schemaIn(request.access, request.params.schema), request.params.id),
  );
}

/** `POST …/items/{schema}/{id}/duplicate`: a new draft copy of the item (`duplicateItem`). */
async function duplicateRoute(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.post(
    `${ITEM_PATH}/duplicate`,
    {
      ...presentedJson,
      schema: {
        tags: ['items'],
        description:
          'Creates a draft copy of the item (edit rights on the schema): its title marked as a copy, slugs ' +
          'made unique, references and files kept, no stage copies, approvals or history before it',
        params: ItemParams,
        response: { 201: Item },
      },
    },
    async (request, reply) => {
      const scope = schemaIn(request.access, request.params.schema);
      const row = await duplicateItem(ctx, scope, request.params.id);
      return reply
        .code(201)
        .header('etag', `"${row.version}"`)
        .send(await items.presentWritten(ctx, scope, row));
    },
  );
}

/** Spec §7 function service: `POST /fun/items/{schema}` and `PUT /fun/items/{schema}/{id}` with `__marquee_workspace`. */
export async function itemFunRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['fun'];

  app.post(
    '/items/:schema',
    {
      schema: {
        tags,
        params: FunSchemaParams,
        querystring: FunQuery,
        body: SaveItemBody,
        response: { 201: CreatedItem },
      },
    },
    async (request, reply) => {
      const scope = schemaIn(request.access, request.params.schema);
      const row = await items.createItem(ctx, scope, request.body.data);
      return reply.code(201).send({ id: row.id, version: row.version });
    },
  );

  app.put(
    '/items/:schema/:id',
    {
      schema: {
        tags,
        params: FunItemParams,
        querystring: FunQuery,
        body: SaveItemBody,
        response: { 200: CreatedItem },
      },
    },
    async (request) => {
      const scope = schemaIn(request.access, request.params.schema);
      const base = baseVersionOf(request, request.body.baseVersion);
      const row = await items.updateItem(ctx, scope, request.params.id, request.body.data, base);
      return { id: row.id, version: row.version };
    },
  );

  app.get(
    '/items/generate-types/:id',
    {
      schema: {
        tags,
        description: 'Spec §7: the TypeScript definition of the item data of schema {id}, as text',
        params: z.object({ id: SchemaName }),
        querystring: FunQuery,
        response: { 200: z.string() },
      },
    },
    async (request, reply) => {
      const { schema } = schemaIn(request.access, request.params.id);
      return reply.type('text/plain; charset=utf-8').send(generateTypes(schema));
    },
  );
}
