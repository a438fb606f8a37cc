/** Helpers for the media components' tests: a fake XMLHttpRequest for uploads, fetch answers, and a host. */
import { useState, type ReactNode } from 'react';
import { act } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { vi } from 'vitest';
import { renderUi } from '../item-form/test-utils';
import { MediaWorkspaceContext, type MediaWorkspace } from './media-workspace';
import { WS } from './test-data';

/** Uploads go through XMLHttpRequest (for progress): each request waits here until the test answers it. */
export class FakeXhr {
  static requests: FakeXhr[] = [];
  method = '';
  url = '';
  body: unknown = null;
  status = 0;
  responseText = '';
  withCredentials = false;
  aborted = false;
  upload: {
    onprogress: ((event: { loaded: number; total: number; lengthComputable: boolean }) => void) | null;
  } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader() {}
  send(body: unknown) {
    this.body = body;
    FakeXhr.requests.push(this);
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  /** The file the request carries. */
  get file(): File {
    return (this.body as FormData).get('file') as File;
  }
  async progress(loaded: number, total: number) {
    await act(async () => this.upload.onprogress?.({ loaded, total, lengthComputable: true }));
  }
  async respond(status: number, json: unknown) {
    await act(async () => {
      this.status = status;
      this.responseText = JSON.stringify(json);
      this.onload?.();
    });
  }
  static install() {
    FakeXhr.requests = [];
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
  }
  static pending() {
    return FakeXhr.requests.filter((request) => request.status === 0 && !request.aborted);
  }
}

type Answer =
  | { status?: number; json: unknown }
  | ((url: string, init?: RequestInit) => { status?: number; json: unknown });

/** Stubs fetch: the first route whose fragment the URL contains answers. Returns the calls made. */
export function stubFetch(routes: Record<string, Answer>) {
  const calls: { url: string; init?: RequestInit }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = String(input);
      calls.push({ url, init });
      const key = Object.keys(routes).find((fragment) => url.includes(fragment));
      if (!key)
        return new Response(JSON.stringify({ error: { code: 'not_found', message: `No stub for ${url}` } }), {
          status: 404,
        });
      const route = routes[key];
      const answer = typeof route === 'function' ? route(url, init) : route;
      return new Response(JSON.stringify(answer.json), {
        status: answer.status ?? 200,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  return calls;
}

export function renderMedia(
  ui: ReactNode,
  workspace: MediaWorkspace = { workspaceId: WS, canEditImageSets: true },
) {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  return renderUi(
    <QueryClientProvider client={client}>
      <MediaWorkspaceContext.Provider value={workspace}>{ui}</MediaWorkspaceContext.Provider>
    </QueryClientProvider>,
  );
}

/** Holds a field's value like the form does and reports every change. */
export function ValueHost<T>({
  initial,
  render,
  onValue,
}: {
  initial: T;
  render: (value: T, onChange: (value: unknown) => void) => ReactNode;
  onValue?: (value: T) => void;
}) {
  const [value, setValue] = useState<T>(initial);
  return (
    <>
      {render(value, (next) => {
        setValue(next as T);
        onValue?.(next as T);
      })}
    </>
  );
}
