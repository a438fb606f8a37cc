import { StorageName } from '@shared/media/contract';
import { mapNestedEntries } from '@shared/schemas/blocks';
import type { FieldDef, SchemaType } from '@shared/schemas/types';
import type { AppContext } from '../context';
import { imageLinks, signOwnImages, type ImageSize, type SignOptions } from '../media/image-links';

/** Widths of the signed links beside a file value (and a reference's thumbnail). */
const THUMBNAIL_WIDTH = 400;
const IMAGE_WIDTH = 1200;

/** The published copy being delivered: its images load while it stays published in that stage. */
export interface DeliveredCopy {
  workspaceId: string;
  stage: string;
  schema: SchemaType;
  id: string;
  /** A draft read with a preview token: its links name no published copy, they load while the file exists. */
  isDraft?: boolean;
}

type Data = Record<string, unknown>;
/** `links(storageName)`: the absolute signed links of that file, by size. */
type Signer = SignOptions & { links: (storageName: string) => (size?: ImageSize) => string };

const isObject = (value: unknown): value is Data =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `list` mapped, or the same array when nothing changed. */
function mapKept<T>(list: readonly T[], map: (item: T) => T): readonly T[] {
  let out: T[] | undefined;
  list.forEach((item, index) => {
    const next = map(item);
    if (next !== item) (out ??= list.slice())[index] = next;
  });
  return out ?? list;
}

/**
 * An image file value as a website loads it: `publicUrl` the signed link of the file itself, beside the
 * signed `thumbnailUrl` and `imageUrl`. The stored `publicUrl` is the members' URL, of no use outside.
 */
function signFile(value: unknown, signer: Signer) {
  if (!isObject(value) || typeof value.storageName !== 'string') return value;
  if (!String(value.contentType).startsWith('image/')) return value;
  const link = signer.links(value.storageName);
  return {
    ...value,
    publicUrl: link(),
    thumbnailUrl: link({ w: THUMBNAIL_WIDTH }),
    imageUrl: link({ w: IMAGE_WIDTH }),
  };
}

/** A reference with a thumbnail (`thumbId`, the referenced item's image) gets its signed `thumbnailUrl`. */
function signReference(value: unknown, signer: Signer) {
  if (!isObject(value) || typeof value.thumbId !== 'string') return value;
  if (!StorageName.safeParse(value.thumbId).success) return value;
  return { ...value, thumbnailUrl: signer.links(value.thumbId)({ w: THUMBNAIL_WIDTH }) };
}

/** An email template's rendered markup (what a reader shows) with its own images signed. */
function signTemplate(value: unknown, signer: Signer) {
  if (!isObject(value)) return value;
  let out = value;
  for (const key of ['combinedMarkup', 'gjs-nl-html']) {
    const html = value[key];
    if (typeof html !== 'string') continue;
    const signed = signOwnImages(html, signer);
    if (signed !== html) out = { ...out, [key]: signed };
  }
  return out;
}

/** The schema being delivered: combination rows override its fields, blocks are of its block types. */
type Delivered = Pick<SchemaType, 'fields' | 'blockTypes'>;

function signValue(field: FieldDef, value: unknown, signer: Signer, schema: Delivered) {
  switch (field.type) {
    case 'rich-text':
      return typeof value === 'string' ? signOwnImages(value, signer) : value;
    case 'email-template':
      return signTemplate(value, signer);
    case 'file':
      return signFile(value, signer);
    case 'reference':
      return signReference(value, signer);
    case 'reference-list':
      return Array.isArray(value) ? mapKept(value, (ref) => signReference(ref, signer)) : value;
    case 'table':
    case 'blocks':
      return mapNestedEntries(field, value, schema.blockTypes, (entry) =>
        signFields(entry.fields, entry.data, signer, schema),
      );
    case 'combinations':
      // A combination row overrides the schema's other fields.
      return Array.isArray(value)
        ? mapKept(value, (row) =>
            isObject(row) && isObject(row.overrides)
              ? withOverrides(row, signFields(schema.fields, row.overrides, signer, schema))
              : row,
          )
        : value;
    default:
      return value;
  }
}

const withOverrides = (row: Data, overrides: Data) =>
  overrides === row.overrides ? row : { ...row, overrides };

function signFields(fields: readonly FieldDef[], data: Data, signer: Signer, schema: Delivered): Data {
  let out = data;
  for (const field of fields) {
    const value = data[field.key];
    if (value === undefined || value === null) continue;
    const signed = signValue(field, value, signer, schema);
    if (signed === value) continue;
    if (out === data) out = { ...data };
    out[field.key] = signed;
  }
  return out;
}

/**
 * Images in delivered data load without a member's session: file values of images carry `publicUrl`
 * (the file as uploaded), `thumbnailUrl` (400 px wide) and `imageUrl` (1200 px wide) beside their focus
 * point; references with a thumbnail carry its `thumbnailUrl`; the workspace's own images in rich text
 * and in email templates' markup point at the same kind of link; the same in table rows, blocks (at any
 * depth) and combination overrides. Each is absolute and signed for that workspace, file and the
 * published copy it is delivered in, so it stops loading once that copy is unpublished (the signed
 * image links of sent emails name no item). The size is the page's to choose (`w`, `h`, `fit`, …).
 */
export function withPublicImages(ctx: AppContext, copy: DeliveredCopy, data: Data): Data {
  const { publicUrl, secret } = ctx.config;
  const { workspaceId } = copy;
  const item = copy.isDraft ? undefined : { stage: copy.stage, schema: copy.schema.name, id: copy.id };
  const signer: Signer = {
    publicUrl,
    secret,
    workspaceId,
    item,
    links: (storageName) => {
      const link = imageLinks(secret, { workspaceId, storageName, item });
      return (size) => `${publicUrl}${link(size)}`;
    },
  };
  return signFields(copy.schema.fields, data, signer, copy.schema);
}

/**
 * What withPublicImages changes shows in the JSON text of the data: a file's `storageName`, a
 * reference's `thumbId`, or an image attribute in markup (src=, background=, style=). Data whose text
 * holds none of them is delivered as it is.
 */
const SIGNED_MARKERS = /storageName|thumbId|src=|background=|style=/;

/** Whether withPublicImages may change data with this JSON text (false: it would return it as it is). */
export const mayHoldImages = (dataText: string) => SIGNED_MARKERS.test(dataText);
