import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors';

/**
 * Input refused at the edge, once for every route: JSON nested deeper than
 * any recursive code may safely walk, and text PostgreSQL cannot store or that is not text at all (NUL
 * characters, unpaired UTF-16 surrogates) in bodies, query strings and path parameters.
 */

/** Deepest nesting of arrays and objects a JSON body may hold; item fields have a tighter limit. */
export const MAX_BODY_DEPTH = 64;

export const UNSAFE_TEXT_MESSAGE = 'Text must not contain NUL characters or unpaired surrogates';
export const UNSAFE_KEY_MESSAGE = 'Field names must not contain NUL characters or unpaired surrogates';
export const POISONED_BODY_MESSAGE =
  'The request body must not hold a "__proto__" key, nor a "constructor" key holding "prototype"';

/** NUL, a high surrogate without its low half, or a low surrogate without its high half. */
const UNSAFE_TEXT = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const isUnsafeText = (text: string) => UNSAFE_TEXT.test(text);

/** `text` with each NUL and unpaired surrogate replaced by U+FFFD, for text kept whatever it holds. */
export const withoutUnsafeText = (text: string) =>
  text.replace(new RegExp(UNSAFE_TEXT.source, 'g'), '\uFFFD');

/**
 * The deepest nesting of arrays and objects in JSON text, read without parsing or recursion so that any
 * input is safe; it stops counting once past `limit`. Brackets inside strings do not count.
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** A field path the way validation messages name fields: `data.images.0.label`, odd keys quoted. */
function pathOf(parent: string, key: string | number): string {
  const part = typeof key === 'number' || /^[\w$-]+$/.test(key) ? String(key) : JSON.stringify(key);
  return parent ? `${parent}.${part}` : part;
}

/**
 * Parsed JSON, query strings and params are plain objects; a body that a content-type parser hands over
 * as a stream (CSV and NDJSON imports) is not data to walk: its object graph (socket, server, …) is
 * cyclic, and walking it never ended.
 */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  if (ArrayBuffer.isView(value) || value instanceof Map || value instanceof Set) return false;
  // Query strings parse into objects of a prototype of their own; streams are never walked.
  return typeof (value as { pipe?: unknown }).pipe !== 'function';
}

/**
 * The first string or key in a parsed value that holds unsafe text, with its path and what is wrong;
 * undefined when all is well. Walks with an explicit stack, so depth cannot overflow anything.
 */
export function findUnsafeText(value: unknown, root = ''): { path: string; message: string } | undefined {
  const stack: { value: unknown; path: string }[] = [{ value, path: root }];
  const seen = new WeakSet<object>();
  while (stack.length > 0) {
    const { value: current, path } = stack.pop()!;
    if (typeof current === 'object' && current !== null) {
      if (seen.has(current)) continue;
      seen.add(current);
    }
    if (typeof current === 'string') {
      if (isUnsafeText(current)) return { path: path || 'body', message: UNSAFE_TEXT_MESSAGE };
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], path: pathOf(path, i) });
    } else if (isPlainObject(current)) {
      const keys = Object.keys(current);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i];
        if (isUnsafeText(key)) return { path: pathOf(path, key), message: UNSAFE_KEY_MESSAGE };
        stack.push({ value: (current as Record<string, unknown>)[key], path: pathOf(path, key) });
      }
    }
  }
  return undefined;
}

/** 400 naming the first unsafe string in `value`, e.g. `data.name: Text must not contain …`. */
export function refuseUnsafeText(value: unknown, root = '') {
  const found = findUnsafeText(value, root);
  if (found) throw badRequest(`${found.path}: ${found.message}`);
}

function isJson(text: string) {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Parses bodies of `contentType` as JSON, refusing ones nested deeper than MAX_BODY_DEPTH and ones
 * holding keys that would reach an object's prototype (Fastify's parser calls those "not valid JSON").
 */
export function parseJsonAs(app: FastifyInstance, contentType: string) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser(contentType, { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (jsonDepthExceeds(text, MAX_BODY_DEPTH)) {
      done(badRequest(`The request body nests deeper than ${MAX_BODY_DEPTH} levels`), undefined);
      return;
    }
    parseJson(request, text, (error, parsed) => {
      if (error && text.length > 0 && isJson(text)) done(badRequest(POISONED_BODY_MESSAGE), undefined);
      else done(error, parsed);
    });
  });
}

/**
 * Registers the guards on the root instance, before any route, so every route (also those added later)
 * gets them: the JSON parser checks depth before parsing, and a preValidation hook checks every string
 * of the parsed body, the query string and the path parameters before validation or a handler sees them.
 */
export function registerInputGuards(app: FastifyInstance) {
  app.removeContentTypeParser('application/json');
  parseJsonAs(app, 'application/json');
  // Not async, so that every request does not wait a turn of promises; Fastify answers what it throws.
  app.addHook('preValidation', (request, _reply, done) => {
    refuseUnsafeText(request.params);
    refuseUnsafeText(request.query);
    if (request.body !== undefined) refuseUnsafeText(request.body);
    done();
  });
}
