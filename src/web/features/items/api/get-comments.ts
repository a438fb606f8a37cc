import { queryOptions, useQuery } from '@tanstack/react-query';
import { CommentList } from '@shared/api/items';
import { apiRequest } from '@web/lib/api-client';
import { itemKeys, itemPath } from './keys';

/** Comments, oldest first. */
const getComments = (ws: string, schema: string, id: string) =>
  apiRequest(`${itemPath(ws, schema, id)}/comments`, { schema: CommentList });

const commentsQueryOptions = (ws: string, schema: string, id: string) =>
  queryOptions({ queryKey: itemKeys.comments(ws, schema, id), queryFn: () => getComments(ws, schema, id) });

export const useComments = (ws: string, schema: string, id: string, enabled = true) =>
  useQuery({ ...commentsQueryOptions(ws, schema, id), enabled });
