import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import type { DeliveredItem } from '@shared/api/delivery';
import type { PreviewRenderBody } from '@shared/api/preview';
import { isApiError } from '@web/lib/api-client';
import { renderPreview } from '@web/lib/preview';
import type { FormFeed } from './form-feed';

type Data = Readonly<Record<string, unknown>>;

/** A page's request to edit a field, from its `data-marquee-edit` element. */
interface EditMessage {
  type: 'marquee:edit';
  path: string;
  schema: string;
  id: string;
}

const isEditMessage = (message: unknown): message is EditMessage => {
  const m = message as Partial<EditMessage> | null;
  return (
    m?.type === 'marquee:edit' &&
    typeof m.path === 'string' &&
    typeof m.schema === 'string' &&
    typeof m.id === 'string'
  );
};

/**
 * The pane's side of the page's preview script: the form's values rendered by the server (one request
 * at a time, the newest values next) and posted to the framed page as `marquee:item`, again when the
 * page says it is ready; `marquee:saved` after each save; the page's `marquee:edit` for this item handed
 * to `onEdit`. Messages go to `origin` only and are read from the framed page on `origin` only.
 */
export function usePreviewChannel({
  ws,
  schema,
  id,
  feed,
  stored,
  locale,
  releaseId,
  origin,
  onEdit,
}: {
  ws: string;
  schema: string;
  id: string;
  /** The form's values as typed and its saves: each change is rendered at once, outside React's renders. */
  feed: FormFeed;
  /** The stored values, until the form reports its own. */
  stored: Data;
  locale?: string;
  releaseId?: string;
  /** The framed page's origin, one of the workspace's preview origins; none sends nothing. */
  origin: string | undefined;
  onEdit: (path: string) => void;
}): { frameRef: RefObject<HTMLIFrameElement | null>; error: string | null } {
  const frameRef = useRef<HTMLIFrameElement>(null);
  const [error, setError] = useState<string | null>(null);
  const latest = useRef<DeliveredItem | null>(null);
  const queue = useRef<{ busy: boolean; next: PreviewRenderBody | null }>({ busy: false, next: null });

  const post = useCallback(
    (message: unknown) => {
      const page = frameRef.current?.contentWindow;
      if (page && origin) page.postMessage(message, origin);
    },
    [origin],
  );
  const postItem = useCallback(() => {
    if (latest.current) post({ type: 'marquee:item', item: latest.current });
  }, [post]);

  const render = useCallback(
    (body: PreviewRenderBody) => {
      const state = queue.current;
      if (state.busy) {
        state.next = body;
        return;
      }
      state.busy = true;
      renderPreview(ws, body)
        .then(
          (answer) => {
            latest.current = { ...answer.item, _editInfo: answer.editInfo };
            postItem();
            setError(null);
          },
          (e: unknown) => setError(isApiError(e) ? e.message : 'The preview could not be rendered'),
        )
        .finally(() => {
          state.busy = false;
          const next = state.next;
          state.next = null;
          if (next) render(next);
        });
    },
    [ws, postItem],
  );

  useEffect(() => {
    const bodyOf = (data: Data): PreviewRenderBody => ({
      schema,
      id,
      data: { ...data },
      ...(locale ? { locale } : {}),
      ...(releaseId ? { releaseId } : {}),
    });
    let seen = feed.get();
    render(bodyOf(seen.data ?? stored));
    return feed.subscribe(() => {
      const next = feed.get();
      if (next.saves !== seen.saves) post({ type: 'marquee:saved' });
      if (next.data !== seen.data && next.data) render(bodyOf(next.data));
      seen = next;
    });
  }, [feed, stored, render, post, schema, id, locale, releaseId]);

  useEffect(() => {
    const handleMessage = (event: MessageEvent) => {
      if (!origin || event.origin !== origin || event.source !== frameRef.current?.contentWindow) return;
      const message: unknown = event.data;
      if ((message as { type?: unknown } | null)?.type === 'marquee:ready') postItem();
      else if (isEditMessage(message) && message.schema === schema && message.id === id) onEdit(message.path);
    };
    window.addEventListener('message', handleMessage);
    return () => window.removeEventListener('message', handleMessage);
  }, [origin, schema, id, onEdit, postItem]);

  return { frameRef, error };
}
