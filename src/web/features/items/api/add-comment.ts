import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Comment, type Comment as CommentType } from '@shared/api/items';
import { apiRequest } from '@web/lib/api-client';
import { itemKeys, itemPath } from './keys';

const addComment = ({ ws, schema, id, text }: { ws: string; schema: string; id: string; text: string }) =>
  apiRequest(`${itemPath(ws, schema, id)}/comments`, { method: 'POST', body: { text }, schema: Comment });

/** Adds a comment and appends it to the cached list. */
export function useAddComment() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: addComment,
    onSuccess: (comment, { ws, schema, id }) => {
      client.setQueryData(
        itemKeys.comments(ws, schema, id),
        (old: { comments: CommentType[] } | undefined) =>
          old ? { comments: [...old.comments, comment] } : old,
      );
    },
  });
}
