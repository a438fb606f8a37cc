import { WriteBatches } from './write-batches';

/** A write that records each batch it was given, answered once `release` is called. */
function recordingWrite(fails: (input: number) => boolean = () => false) {
  const batches: number[][] = [];
  let release: () => void = () => {};
  let gate = new Promise<void>((resolve) => (release = resolve));
  const write = async (inputs: number[]) => {
    batches.push(inputs);
    await gate;
    if (inputs.some(fails)) throw new Error(`bad ${inputs.filter(fails).join(',')}`);
    return inputs.map((n) => n * 10);
  };
  return {
    batches,
    write,
    open() {
      release();
      gate = Promise.resolve();
    },
  };
}

describe('WriteBatches', () => {
  it('writes the first at once, alone, and those arriving meanwhile together after it', async () => {
    const w = recordingWrite();
    const batches = new WriteBatches(w.write);
    const first = batches.run('a', 1);
    const rest = [2, 3, 4].map((n) => batches.run('a', n));
    await Promise.resolve();
    expect(w.batches).toEqual([[1]]);
    w.open();
    expect(await first).toBe(10);
    expect(await Promise.all(rest)).toEqual([20, 30, 40]);
    expect(w.batches).toEqual([[1], [2, 3, 4]]);
  });

  it('writes groups apart, and bounds a batch', async () => {
    const w = recordingWrite();
    const batches = new WriteBatches(w.write, 2);
    const all = [
      batches.run('a', 1),
      batches.run('b', 2),
      batches.run('a', 3),
      batches.run('a', 4),
      batches.run('a', 5),
    ];
    w.open();
    expect(await Promise.all(all)).toEqual([10, 20, 30, 40, 50]);
    expect(w.batches).toEqual([[1], [2], [3, 4], [5]]);
  });

  it('tries each write of a failed batch alone: only the bad one fails', async () => {
    const w = recordingWrite((n) => n === 3);
    const batches = new WriteBatches(w.write);
    const all = [1, 2, 3, 4].map((n) => batches.run('a', n).then(String, (error: Error) => error.message));
    w.open();
    expect(await Promise.all(all)).toEqual(['10', '20', 'bad 3', '40']);
    expect(w.batches).toEqual([[1], [2, 3, 4], [2], [3], [4]]);
  });
});
