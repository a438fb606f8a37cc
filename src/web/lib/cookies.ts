const COOKIE_NOTICE_NAME = 'marquee_cookie_notification';
const YEAR_SECONDS = 365 * 24 * 60 * 60;

function readCookie(name: string, cookieString = document.cookie): string | undefined {
  for (const part of cookieString.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

/** Spec §9: the cookie notice sets marquee_cookie_notification=1 for 365 days, secure, path /. */
function cookieNoticeCookie(): string {
  return `${COOKIE_NOTICE_NAME}=1; Max-Age=${YEAR_SECONDS}; Path=/; Secure; SameSite=Lax`;
}

export const isCookieNoticeAccepted = () => readCookie(COOKIE_NOTICE_NAME) === '1';

export function acceptCookieNotice() {
  document.cookie = cookieNoticeCookie();
}
