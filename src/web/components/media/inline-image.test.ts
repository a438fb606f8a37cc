import { describe, expect, it } from 'vitest';
import { parseOwnImageUrl } from '@shared/media/urls';
import {
  inlineImageOfFile,
  inlineImageOfSet,
  inlineImageReferences,
  matchesImageSearch,
  storedRichTextHtml,
} from './inline-image';
import { fileRecord, WS } from './test-data';

const imageSet = {
  id: 'set-1',
  data: { masterImage: fileRecord(), name: 'Beach', altText: 'A sunny beach', labels: ['summer', 'sea'] },
};

describe('inlineImageOfSet', () => {
  it("shows the set's master image at w=600 and references the set", () => {
    const image = inlineImageOfSet(WS, imageSet)!;
    expect(image).toMatchObject({
      alt: 'A sunny beach',
      title: 'Beach',
      refId: 'set-1',
      refSchemaType: 'marquee-assets-image-set',
    });
    expect(image.src).toBe('/fun/imageResize/?id=abcdefghijklmnop1234.png&w=600&__marquee_workspace=acme');
    // The server's sanitiser keeps only our own images: this src must be one.
    expect(parseOwnImageUrl(image.src)).toEqual({ workspaceId: WS, storageName: 'abcdefghijklmnop1234.png' });
  });

  it('is null for a set without a master image', () => {
    expect(inlineImageOfSet(WS, { id: 'x', data: { name: 'Empty' } })).toBeNull();
  });

  it('keeps a bare upload without a reference', () => {
    expect(inlineImageOfFile(WS, fileRecord(), 'beach')).toMatchObject({ alt: 'beach' });
    expect(inlineImageOfFile(WS, fileRecord(), 'beach').refId).toBeUndefined();
  });
});

describe('matchesImageSearch', () => {
  it('matches every word against name, alt text and labels', () => {
    expect(matchesImageSearch(imageSet, '')).toBe(true);
    expect(matchesImageSearch(imageSet, 'beach')).toBe(true);
    expect(matchesImageSearch(imageSet, 'SUNNY sea')).toBe(true);
    expect(matchesImageSearch(imageSet, 'mountain')).toBe(false);
  });
});

describe('storedRichTextHtml', () => {
  it('stores an empty document as an empty string', () => {
    expect(storedRichTextHtml('<p></p>', true)).toBe('');
  });

  it('leaves out images still uploading or failed, keeping the rest', () => {
    const html =
      '<p>Hi</p><img src="blob:x" data-uploading=""><img src="blob:y" data-upload-error=""><img src="/fun/imageResize/?id=a&amp;w=600">';
    expect(storedRichTextHtml(html, false)).toBe('<p>Hi</p><img src="/fun/imageResize/?id=a&amp;w=600">');
  });
});

describe('inlineImageReferences', () => {
  it('finds the image sets inline images reference', () => {
    const html =
      '<p>x</p><img src="/a.png" data-ref-id="set-1" data-ref-schema-type="marquee-assets-image-set"><img src="/b.png">';
    expect(inlineImageReferences(html)).toEqual([
      { id: 'set-1', schemaType: 'marquee-assets-image-set', src: '/a.png' },
    ]);
  });
});
