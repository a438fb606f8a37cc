import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';

const TIMEOUT_MS = 10_000;

/** How a POST went: the answer's status, if any, and why it failed (null when answered 2xx). */
export interface PostOutcome {
  statusCode: number | null;
  error: string | null;
}

/**
 * POSTs a JSON body for the job worker's senders: no redirects followed, at most 10 s and at most half the
 * lease on the work (so no other process takes work still being sent), and aborted when the server stops
 * (`stopping`), which the outcome says so the work is due again at once. With `lookup`, the host's name is
 * resolved by it on a connection of the request's own (none kept from an earlier request is reused).
 */
export async function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
  stopping: AbortSignal,
  leaseMs: number,
  lookup?: LookupFunction,
): Promise<PostOutcome> {
  const timedOut = AbortSignal.timeout(Math.min(TIMEOUT_MS, leaseMs / 2));
  try {
    const target = new URL(url);
    const request = target.protocol === 'https:' ? https.request : http.request;
    const statusCode = await new Promise<number>((resolve, reject) => {
      const sending = request(
        target,
        {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            ...headers,
          },
          signal: AbortSignal.any([stopping, timedOut]),
          ...(lookup ? { lookup, agent: false } : {}),
        },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      sending.once('error', reject);
      sending.end(body);
    });
    const ok = statusCode >= 200 && statusCode < 300;
    return { statusCode, error: ok ? null : `Answered HTTP ${statusCode}` };
  } catch (err) {
    const error = stopping.aborted
      ? 'Interrupted by a server shutdown'
      : timedOut.aborted
        ? 'No answer within the time allowed'
        : err instanceof Error
          ? err.message
          : String(err);
    return { statusCode: null, error };
  }
}
