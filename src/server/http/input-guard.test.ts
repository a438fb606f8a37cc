import { Readable } from 'node:stream';
import { findUnsafeText } from './input-guard';

describe('findUnsafeText', () => {
  it('names the first string or key holding NUL or a lone surrogate', () => {
    expect(findUnsafeText({ data: { tags: ['ok', 'b\u0000d'] } })?.path).toBe('data.tags.1');
    expect(findUnsafeText({ data: { ['k\ud800']: 1 } })?.message).toMatch(/unpaired surrogates/);
    expect(findUnsafeText({ data: { name: 'fine' } })).toBeUndefined();
  });

  it('leaves a body handed over as a stream alone', () => {
    // Broke: CSV imports hand the request stream over as the body; walking its cyclic object graph
    // (socket, server, …) never ended and the server grew to gigabytes.
    const stream = Readable.from(['id\n1\n']) as Readable & { self?: unknown };
    stream.self = stream;
    expect(findUnsafeText(stream)).toBeUndefined();
    expect(findUnsafeText({ nested: new Map([['a', '\u0000']]) })).toBeUndefined();
  });
});
