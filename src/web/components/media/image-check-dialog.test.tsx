import { afterEach, describe, expect, it, vi } from 'vitest';
import { bodyText } from '../item-form/test-utils';
import { findByText } from '@web/test/render';
import { ImageCheckDialog } from './image-check-dialog';
import { renderMedia, stubFetch } from './media-test-utils';
import { localSanity, visionSanity, WS } from './test-data';

afterEach(() => vi.unstubAllGlobals());

const ratings = () =>
  ['adult', 'spoof', 'medical', 'violence', 'racy'].map(
    (c) => document.querySelector(`[data-testid="rating-${c}"]`)?.textContent,
  );

describe('ImageCheckDialog', () => {
  it('with the local analyser: workspace matches, the public internet not checked, ratings not analysed', async () => {
    stubFetch({});
    const sanity = localSanity({
      pagesWithMatchingImages: [
        { url: `/${WS}/assets/marquee-assets-image-set/x1`, pageTitle: 'Duplicate: Image Set "Beach"' },
      ],
    });
    await renderMedia(
      <ImageCheckDialog
        opened
        onClose={() => {}}
        workspaceId={WS}
        storageName="abcdefghijklmnop1234.png"
        fileName="beach.png"
        sanity={sanity}
      />,
    );
    expect(bodyText()).toContain('Image check: beach.png');
    expect(bodyText()).toContain('Public internet: not checked');
    expect(bodyText()).toContain('1 matching image found in this workspace');
    const link = Array.from(document.querySelectorAll('a')).find(
      (a) => a.textContent === 'Duplicate: Image Set "Beach"',
    );
    expect(link?.getAttribute('href')).toBe(`/${WS}/assets/marquee-assets-image-set/x1`);
    expect(ratings()).toEqual([
      'Not analysed',
      'Not analysed',
      'Not analysed',
      'Not analysed',
      'Not analysed',
    ]);
    expect(bodyText()).toContain('Safe search not analysed: no image analysis service is configured');
    expect(bodyText()).toContain('Local analyser');
  });

  it('with Google Cloud Vision: matches on the public internet and the five ratings', async () => {
    stubFetch({});
    await renderMedia(
      <ImageCheckDialog
        opened
        onClose={() => {}}
        workspaceId={WS}
        storageName="abcdefghijklmnop1234.png"
        sanity={visionSanity()}
      />,
    );
    expect(bodyText()).toContain('1 matching image found on the public internet');
    expect(bodyText()).not.toContain('Public internet: not checked');
    expect(ratings()).toEqual(['Very unlikely', 'Unlikely', 'Possible', 'Likely', 'Very likely']);
  });

  it('says when no matching images were found', async () => {
    stubFetch({});
    const sanity = {
      ...visionSanity(),
      webDetection: { ...visionSanity().webDetection, pagesWithMatchingImages: [] },
    };
    await renderMedia(
      <ImageCheckDialog
        opened
        onClose={() => {}}
        workspaceId={WS}
        storageName="abcdefghijklmnop1234.png"
        sanity={sanity}
      />,
    );
    expect(bodyText()).toContain('No matching images found on the public internet');
  });

  it('analyses a file that has no analysis yet, and hands the answer to the value', async () => {
    const calls = stubFetch({ '/fun/sanity/': { json: localSanity() } });
    const analysed = vi.fn();
    await renderMedia(
      <ImageCheckDialog
        opened
        onClose={() => {}}
        workspaceId={WS}
        storageName="abcdefghijklmnop1234.png"
        onAnalysed={analysed}
      />,
    );
    await findByText('No matching images found in this workspace');
    expect(calls[0].url).toContain('/fun/sanity/?id=abcdefghijklmnop1234.png');
    expect(analysed).toHaveBeenCalledWith(localSanity());
  });
});
