/**
 * Reads a few text tags from an EXIF block (as sharp's metadata gives it: "Exif\0\0" then a TIFF
 * header): camera make and model, software and the original date. Anything malformed gives nothing.
 */
export interface ExifFacts {
  make?: string;
  model?: string;
  software?: string;
  dateTimeOriginal?: string;
}

const TAGS: Record<number, keyof ExifFacts> = {
  0x010f: 'make',
  0x0110: 'model',
  0x0131: 'software',
  0x9003: 'dateTimeOriginal',
};
const EXIF_IFD_POINTER = 0x8769;
const ASCII = 2;
const LONG = 4;

export function readExif(block: Buffer | undefined): ExifFacts {
  if (!block || block.length < 14) return {};
  const start = block.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? 6 : 0;
  const tiff = block.subarray(start);
  const order = tiff.subarray(0, 2).toString('latin1');
  if (order !== 'II' && order !== 'MM') return {};
  const little = order === 'II';
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const facts: ExifFacts = {};
  const visit = (offset: number, depth: number) => {
    if (depth > 2 || offset + 2 > tiff.length) return;
    const count = u16(offset);
    for (let i = 0; i < count && i < 500; i++) {
      const entry = offset + 2 + i * 12;
      if (entry + 12 > tiff.length) return;
      const tag = u16(entry);
      const type = u16(entry + 2);
      const length = u32(entry + 4);
      if (tag === EXIF_IFD_POINTER && type === LONG) visit(u32(entry + 8), depth + 1);
      const key = TAGS[tag];
      if (!key || type !== ASCII || length === 0 || length > 256) continue;
      const at = length <= 4 ? entry + 8 : u32(entry + 8);
      if (at + length > tiff.length) continue;
      const value = tiff
        .subarray(at, at + length)
        .toString('latin1')
        // eslint-disable-next-line no-control-regex
        .replace(/[\u0000-\u001f\u007f]+/g, '')
        .trim();
      if (value) facts[key] = value;
    }
  };
  try {
    visit(u32(4), 0);
  } catch {
    return facts;
  }
  return facts;
}
