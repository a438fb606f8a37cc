import { describe, expect, it } from 'vitest';
import { imageLinks, isSignedImageLink, signOwnImages } from './image-links';

const secret = 'test-secret';
const publicUrl = 'http://marquee.test';
const storageName = 'AAAAAAAAAAAAAAAAAAAAAAAA.png';
const fileUrl = `/api/v1/workspaces/acme/files/${storageName}`;
const item = { stage: 'live', schema: 'blog-post', id: 'post1' };

const sigOf = (url: string) => new URL(url, publicUrl).searchParams.get('sig')!;

describe('signed image links', () => {
  it('sign the workspace, the file and the item they were delivered in, not the size', () => {
    const email = imageLinks(secret, { workspaceId: 'acme', storageName });
    expect(email({ w: 1200 })).toBe(
      `/fun/emailImage/?id=${storageName}&w=1200&__marquee_workspace=acme&sig=${sigOf(email())}`,
    );
    expect(email()).toBe(`/fun/emailImage/?id=${storageName}&__marquee_workspace=acme&sig=${sigOf(email())}`);
    const delivered = imageLinks(secret, { workspaceId: 'acme', storageName, item })({ w: 1200 });
    expect(delivered).toContain('&stage=live&schema=blog-post&item=post1&sig=');
    const link = { workspaceId: 'acme', storageName };
    const sig = sigOf(delivered);
    // Any size of the same image: a page asks for the widths of its srcset.
    for (const size of [{}, { w: 32 }, { w: 640, h: 360 }])
      expect(isSignedImageLink(secret, { ...link, item }, size, sig)).toBe(true);
    expect(isSignedImageLink(secret, link, {}, sig)).toBe(false);
    expect(isSignedImageLink(secret, { ...link, item: { ...item, stage: 'staging' } }, {}, sig)).toBe(false);
    expect(isSignedImageLink(secret, { ...link, storageName: `B${storageName.slice(1)}` }, {}, sig)).toBe(
      false,
    );
    expect(isSignedImageLink(secret, { ...link, workspaceId: 'other' }, {}, sig)).toBe(false);
    expect(isSignedImageLink('another-secret', { ...link, item }, {}, sig)).toBe(false);
  });

  it('still accept links signed for one size, as emails already sent and cached pages hold them, at that size', () => {
    // Signed before sizes were left to the page: the signature names w (and h).
    const sentEmail = new URL(
      `/fun/emailImage/?id=${storageName}&w=1200&__marquee_workspace=acme&sig=Bc-wgXRrJxBcgC8e0XojIBbUQnlkFK0sftn5EbpFO_8`,
      publicUrl,
    );
    const cachedPage = new URL(
      `/fun/emailImage/?id=${storageName}&w=400&__marquee_workspace=acme&stage=live&schema=blog-post&item=post1&sig=yV74u9p6neqaSU_ScTZMjuRcHMmbeJqrcH2tCu2fQAs`,
      publicUrl,
    );
    const link = { workspaceId: 'acme', storageName };
    expect(isSignedImageLink(secret, link, { w: 1200 }, sigOf(sentEmail.href))).toBe(true);
    expect(isSignedImageLink(secret, { ...link, item }, { w: 400 }, sigOf(cachedPage.href))).toBe(true);
    for (const size of [{ w: 401 }, {}, { w: 400, h: 300 }])
      expect(isSignedImageLink(secret, { ...link, item }, size, sigOf(cachedPage.href))).toBe(false);
    expect(isSignedImageLink(secret, { ...link, item }, { w: 1200 }, sigOf(sentEmail.href))).toBe(false);
  });

  it('sign own images in src, background and CSS url(), leaving other URLs alone', () => {
    const html =
      `<img src="${fileUrl}"><td background="${publicUrl}${fileUrl}"></td>` +
      `<div style="color:red;background-image:url('${fileUrl}')"></div>` +
      `<div style="background:#fff url(&quot;${fileUrl}&quot;) no-repeat"></div>` +
      `<div style="background-image:url(https://cdn.example/x.png)"></div>` +
      `<img src="/api/v1/workspaces/other/files/${storageName}">`;
    const signed = signOwnImages(html, { publicUrl, secret, workspaceId: 'acme', item });
    const links = [
      ...signed.matchAll(/http:\/\/marquee\.test\/fun\/emailImage\/\?[^"'&]+(?:&amp;[^"'&]+)*/g),
    ];
    expect(links).toHaveLength(4);
    for (const [link] of links) {
      const url = new URL(link.replace(/&amp;/g, '&'));
      expect(url.searchParams.get('item')).toBe('post1');
      expect(url.searchParams.get('w')).toBe('1200');
    }
    expect(signed).toContain(`url('${links[2][0]}')`);
    expect(signed).toContain(`url(&quot;${links[3][0]}&quot;) no-repeat`);
    expect(signed).toContain('url(https://cdn.example/x.png)');
    expect(signed).toContain(`src="/api/v1/workspaces/other/files/${storageName}"`);
  });
});
