import { useState } from 'react';
import { Alert, Avatar, Button, Group, Loader, Stack, Text, Textarea } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import type { Item } from '@shared/api/items';
import type { Workspace } from '@shared/api/workspaces';
import { errorMessage } from '@web/lib/api-client';
import { formatDateTime, fromNow } from '@web/lib/dates';
import { useAddComment } from '../api/add-comment';
import { useComments } from '../api/get-comments';
import { useMembers } from '@web/lib/members';
import { userLabel } from '../item-labels';

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]!.toUpperCase())
    .join('');

/** The conversation about an item: comments oldest first, and a box to add one. */
export function CommentsPanel({ workspace, item }: { workspace: Workspace; item: Item }) {
  const comments = useComments(workspace.id, item.schema, item.id);
  const members = useMembers(workspace.id);
  const add = useAddComment();
  const [text, setText] = useState('');

  const handleSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!text.trim()) return;
    add.mutate(
      { ws: workspace.id, schema: item.schema, id: item.id, text },
      { onSuccess: () => setText('') },
    );
  };

  return (
    <Stack gap="sm" data-testid="comments-panel">
      {comments.isPending ? (
        <Loader size="sm" />
      ) : comments.isError ? (
        <Alert color="red" variant="light" role="alert">
          {errorMessage(comments.error)}
        </Alert>
      ) : comments.data.comments.length === 0 ? (
        <Text size="sm" c="dimmed">
          No comments yet. Start the conversation.
        </Text>
      ) : (
        <Stack gap="sm">
          {comments.data.comments.map((comment) => {
            const by = userLabel(comment.by, comment.byName, members.data?.members);
            return (
              <Group key={comment.id} align="flex-start" gap="sm" wrap="nowrap" data-testid="comment">
                <Avatar size={28} radius="xl" color="indigo">
                  {initials(by)}
                </Avatar>
                <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
                  <Group gap={6}>
                    <Text size="sm" fw={600}>
                      {by}
                    </Text>
                    <Text size="xs" c="dimmed" title={formatDateTime(comment.at)}>
                      {fromNow(comment.at)}
                    </Text>
                  </Group>
                  <Text size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                    {comment.text}
                  </Text>
                </Stack>
              </Group>
            );
          })}
        </Stack>
      )}
      <form onSubmit={handleSubmit}>
        <Stack gap="xs">
          <Textarea
            aria-label="New comment"
            placeholder="Write a comment…"
            autosize
            minRows={2}
            maxRows={8}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) handleSubmit(e);
            }}
          />
          {add.isError && (
            <Text size="xs" c="red" role="alert">
              {errorMessage(add.error)}
            </Text>
          )}
          <Group justify="flex-end">
            <Button
              type="submit"
              size="xs"
              disabled={!text.trim()}
              loading={add.isPending}
              leftSection={<IconSend size={14} />}
            >
              Comment
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
