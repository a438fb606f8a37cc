const TIMEOUT_MS = 10_000;

/** How a POST went: the answer's status, if any, and why it failed (null when answered 2xx). */
export interface PostOutcome {
  statusCode: number | null;
  error: string | null;
}

/**
 * POSTs a JSON body for the job worker's senders: no redirects followed, at most 10 s and at most half the
 * lease on the work (so no other process takes work still being sent), and aborted when the server stops
 * (`stopping`), which the outcome says so the work is due again at once.
 */
export async function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
  stopping: AbortSignal,
  leaseMs: number,
): Promise<PostOutcome> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
      redirect: 'manual',
      signal: AbortSignal.any([stopping, AbortSignal.timeout(Math.min(TIMEOUT_MS, leaseMs / 2))]),
    });
    await response.body?.cancel();
    const error = response.ok ? null : `Answered HTTP ${response.status}`;
    return { statusCode: response.status, error };
  } catch (err) {
    const error = stopping.aborted
      ? 'Interrupted by a server shutdown'
      : err instanceof Error
        ? err.message
        : String(err);
    return { statusCode: null, error };
  }
}
