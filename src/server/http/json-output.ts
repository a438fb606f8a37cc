/**
 * JSON answers that stored data cannot break: data saved before depth limits existed may nest deeper
 * than JSON.stringify's stack allows, and one such item must not turn every list holding it into a 500.
 */

/** Containers below this depth are written as null in the fallback; far beyond any accepted save. */
export const MAX_OUTPUT_DEPTH = 256;

type Container = Record<string | number, unknown>;

/** A copy of `value` whose arrays and objects nested past `limit` are null; built without recursion. */
export function clampDepth(value: unknown, limit: number): unknown {
  const shell = (v: unknown): unknown =>
    Array.isArray(v) ? new Array(v.length) : typeof v === 'object' && v !== null ? {} : v;
  const root = shell(value);
  const stack: { source: unknown; target: unknown; depth: number }[] = [
    { source: value, target: root, depth: 0 },
  ];
  while (stack.length > 0) {
    const { source, target, depth } = stack.pop()!;
    if (typeof source !== 'object' || source === null) continue;
    const entries: [string | number, unknown][] = Array.isArray(source)
      ? source.map((child, i) => [i, child])
      : Object.entries(source);
    for (const [key, child] of entries) {
      if (typeof child !== 'object' || child === null) {
        (target as Container)[key] = child;
      } else if (depth + 1 >= limit) {
        (target as Container)[key] = null;
      } else {
        const copy = shell(child);
        (target as Container)[key] = copy;
        stack.push({ source: child, target: copy, depth: depth + 1 });
      }
    }
  }
  return root;
}

/**
 * JSON.stringify, and when the value nests too deep for it (RangeError), the value with its deepest
 * parts cut to null: the answer stays valid JSON and the rest of the page is served.
 */
export function stringifyStored(value: unknown, onClamp?: () => void): string {
  try {
    return JSON.stringify(value);
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    onClamp?.();
    return JSON.stringify(clampDepth(value, MAX_OUTPUT_DEPTH));
  }
}

type SerializerCompiler<R> = (route: R) => (data: unknown) => string;

/** Wraps a route serializer compiler so that every answer it serialises gets the same fallback. */
export function depthSafe<R>(compile: SerializerCompiler<R>): SerializerCompiler<R> {
  return (route) => {
    const serialize = compile(route);
    return (data) => {
      try {
        return serialize(data);
      } catch (err) {
        if (!(err instanceof RangeError)) throw err;
        return serialize(clampDepth(data, MAX_OUTPUT_DEPTH));
      }
    };
  };
}
