import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AddCommentBody, Comment, CommentList } from '@shared/api/items';
import type { AppContext } from '../context';
import { ITEM_PATH, ItemParams } from '../items/routes';
import { schemaIn } from '../items/scope';
import * as comments from './service';

export async function commentRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['comments'];

  app.get(
    `${ITEM_PATH}/comments`,
    { schema: { tags, params: ItemParams, response: { 200: CommentList } } },
    async (request) => {
      const scope = schemaIn(request.access, request.params.schema);
      return { comments: await comments.listComments(ctx, scope, request.params.id) };
    },
  );

  app.post(
    `${ITEM_PATH}/comments`,
    { schema: { tags, params: ItemParams, body: AddCommentBody, response: { 201: Comment } } },
    async (request, reply) => {
      const scope = schemaIn(request.access, request.params.schema);
      return reply
        .code(201)
        .send(await comments.addComment(ctx, scope, request.params.id, request.body.text));
    },
  );
}
