/** A Server-Sent Events stream read over real HTTP, as a browser's EventSource would. */

export interface StreamEvent {
  event: string;
  data: Record<string, unknown>;
}

export interface EventStream {
  /** The status of the answer (a refused stream answers JSON and is not read). */
  status: number;
  /** Every event received so far, in order. */
  events: StreamEvent[];
  /** Resolves with the first event (since the start) for which `match` holds, waiting for it if need be. */
  next(match: (event: StreamEvent) => boolean): Promise<StreamEvent>;
  /** Resolves once the server ended the stream. */
  ended: Promise<void>;
  close(): void;
}

export async function openEventStream(url: string, token: string): Promise<EventStream> {
  const abort = new AbortController();
  const res = await fetch(url, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    signal: abort.signal,
  });
  const events: StreamEvent[] = [];
  const waiting = new Set<() => void>();
  const told = () => {
    for (const wake of waiting) wake();
  };
  let buffer = '';
  const read = async () => {
    if (!res.ok || !res.body) return;
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const fields = Object.fromEntries(
            block
              .split('\n')
              .filter((line) => line && !line.startsWith(':'))
              .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]),
          );
          if (fields.event) events.push({ event: fields.event, data: JSON.parse(fields.data ?? '{}') });
        }
        told();
      }
    } catch {
      // Aborted by close().
    }
  };
  let ended = false;
  const done = read().finally(() => {
    ended = true;
    told();
  });
  return {
    status: res.status,
    events,
    ended: done,
    next(match) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.find(match);
          if (found) {
            waiting.delete(check);
            resolve(found);
          } else if (ended) {
            waiting.delete(check);
            reject(new Error(`stream ended without the event; had ${JSON.stringify(events)}`));
          }
        };
        waiting.add(check);
        check();
      });
    },
    close: () => abort.abort(),
  };
}
