/**
 * The spec's generic visualisation GET (§7 "Other"): one GET to the configured URL with its configured
 * header, answering JSON. Failures become a VisualisationError whose message says what went wrong.
 */
export class VisualisationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VisualisationError';
  }
}

const MAX_BYTES = 1024 * 1024;

/** `Name: value` → a header pair; anything else is ignored. */
function parseHeader(header: string | undefined): Record<string, string> {
  const match = header && /^\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*:\s*(.*)$/.exec(header);
  return match ? { [match[1]]: match[2].trim() } : {};
}

export async function fetchVisualisation(
  url: string,
  header: string | undefined,
  timeoutMs = 10_000,
): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { Accept: 'application/json', ...parseHeader(header) },
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
  } catch (err) {
    throw new VisualisationError(`The visualisation service could not be reached: ${(err as Error).message}`);
  }
  if (!response.ok) throw new VisualisationError(`The visualisation service answered ${response.status}`);
  const text = await response.text();
  if (text.length > MAX_BYTES) throw new VisualisationError('The visualisation result is larger than 1 MB');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new VisualisationError('The visualisation service did not answer JSON');
  }
}
