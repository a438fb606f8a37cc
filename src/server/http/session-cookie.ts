/** The cookie that carries a browser's session token. */
export const SESSION_COOKIE = 'marquee_session';
