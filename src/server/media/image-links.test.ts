import { describe, expect, it } from 'vitest';
import { imageLinkUrl, isSignedImageLink, signOwnImages } from './image-links';

const secret = 'test-secret';
const publicUrl = 'http://marquee.test';
const storageName = 'AAAAAAAAAAAAAAAAAAAAAAAA.png';
const fileUrl = `/api/v1/workspaces/acme/files/${storageName}`;
const item = { stage: 'live', schema: 'blog-post', id: 'post1' };

const sigOf = (url: string) => new URL(url, publicUrl).searchParams.get('sig')!;

describe('signed image links', () => {
  it('sign email links as before, and delivered links for their item too', () => {
    const email = imageLinkUrl(secret, { workspaceId: 'acme', storageName, w: 1200 });
    expect(email).toBe(
      `/fun/emailImage/?id=${storageName}&w=1200&__marquee_workspace=acme&sig=${sigOf(email)}`,
    );
    const delivered = imageLinkUrl(secret, { workspaceId: 'acme', storageName, w: 1200, item });
    expect(delivered).toContain('&stage=live&schema=blog-post&item=post1&sig=');
    const link = { workspaceId: 'acme', storageName, w: 1200 };
    expect(isSignedImageLink(secret, { ...link, item }, sigOf(delivered))).toBe(true);
    expect(isSignedImageLink(secret, link, sigOf(delivered))).toBe(false);
    expect(
      isSignedImageLink(secret, { ...link, item: { ...item, stage: 'staging' } }, sigOf(delivered)),
    ).toBe(false);
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
