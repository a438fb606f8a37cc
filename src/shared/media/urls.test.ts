import { fileUrl, imageResizeUrl, parseOwnImageUrl } from './urls';

const NAME = 'AbCdEfGhIjKlMnOpQrStUvWx.png';

describe('media URLs', () => {
  it('builds the file URL and the spec thumbnail URLs', () => {
    expect(fileUrl('acme', NAME)).toBe(`/api/v1/workspaces/acme/files/${NAME}`);
    expect(imageResizeUrl('acme', NAME, { w: 400 })).toBe(
      `/fun/imageResize/?id=${NAME}&w=400&__marquee_workspace=acme`,
    );
    expect(imageResizeUrl('acme', NAME, { h: 100 })).toBe(
      `/fun/imageResize/?id=${NAME}&h=100&__marquee_workspace=acme`,
    );
  });

  it('recognises our own file and thumbnail URLs, relative or under the public origin', () => {
    const own = { workspaceId: 'acme', storageName: NAME };
    expect(parseOwnImageUrl(fileUrl('acme', NAME))).toEqual(own);
    expect(parseOwnImageUrl(imageResizeUrl('acme', NAME, { w: 600 }))).toEqual(own);
    expect(
      parseOwnImageUrl(`https://cms.example.com${fileUrl('acme', NAME)}`, 'https://cms.example.com'),
    ).toEqual(own);
  });

  it.each([
    `https://evil.example${fileUrl('acme', NAME)}`,
    `//evil.example${fileUrl('acme', NAME)}`,
    `${fileUrl('acme', NAME)}?x=1`,
    `/api/v1/workspaces/acme/files/../../secret.png`,
    `/api/v1/workspaces/acme/files/short.png`,
    `/fun/imageResize/?id=${NAME}&__marquee_workspace=acme`,
    `/fun/imageResize/?id=${NAME}&w=400&__marquee_workspace=acme&onerror=x`,
    `/fun/imageResize/?id=${NAME}&w=abc&__marquee_workspace=acme`,
    'javascript:alert(1)',
    'data:image/png;base64,AAAA',
    '',
  ])('refuses %s', (src) => {
    expect(parseOwnImageUrl(src, 'https://cms.example.com')).toBeNull();
  });
});
