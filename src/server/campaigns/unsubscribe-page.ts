import { CAMPAIGN_MESSAGES } from '@shared/api/campaigns';
import { TRACKING_MESSAGES } from '@shared/api/campaign-tracking';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/**
 * The app's look without its bundle: an inline style sheet (the CSP allows inline styles, no scripts
 * are needed: the buttons are forms), system fonts, the brand violet, readable on a phone.
 */
const STYLE = `
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;padding:16px;
background:#f8f9fa;color:#212529;font:16px/1.55 Inter,ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,
"Helvetica Neue",Arial,"Noto Sans",sans-serif}
main{width:100%;max-width:440px;background:#fff;border:1px solid #dee2e6;border-radius:8px;padding:32px 24px;
box-shadow:0 1px 3px rgba(0,0,0,.05),0 10px 15px -5px rgba(0,0,0,.05)}
h1{margin:0 0 12px;font-size:22px;font-weight:650;line-height:1.3}
p{margin:0 0 20px;color:#495057}
.address{font-weight:600;color:#212529;word-break:break-all}
form{margin:0}
button{width:100%;min-height:44px;border:0;border-radius:8px;padding:10px 18px;background:#5b4bdb;color:#fff;
font:inherit;font-weight:550;cursor:pointer}
button:hover{background:#4c3ccc}
button:focus-visible{outline:2px solid #5b4bdb;outline-offset:2px}
button.secondary{background:#fff;color:#4c3ccc;border:1px solid #b6adf2}
button.secondary:hover{background:#f0eeff}
.brand{margin-top:24px;font-size:13px;color:#636a72;text-align:center}
`;

function page(title: string, body: string) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
<div class="brand">Marquee</div>
</main>
</body>
</html>
`;
}

export interface UnsubscribeView {
  workspaceName: string;
  /** The address, partly hidden. */
  address: string;
  unsubscribed: boolean;
  /** Answering the resubscribe button: says so. */
  resubscribed?: boolean;
}

/**
 * The page of `/u/{token}`: the address and a button. Opening it changes nothing (mail scanners fetch
 * links); the button posts to the same address, and the answer shows the new state with the button
 * that undoes it.
 */
export function unsubscribePage(token: string, view: UnsubscribeView) {
  const address = `<span class="address">${escapeHtml(view.address)}</span>`;
  const action = `/u/${encodeURIComponent(token)}`;
  if (view.unsubscribed) {
    return page(
      CAMPAIGN_MESSAGES.unsubscribed,
      `<h1>${CAMPAIGN_MESSAGES.unsubscribed}</h1>
<p>${address}: ${escapeHtml(TRACKING_MESSAGES.unsubscribedDetail(view.workspaceName))}</p>
<form method="post" action="${action}/resubscribe">
<button type="submit" class="secondary">${TRACKING_MESSAGES.resubscribeButton}</button>
</form>`,
    );
  }
  const heading = view.resubscribed ? CAMPAIGN_MESSAGES.resubscribed : TRACKING_MESSAGES.unsubscribeTitle;
  const text = view.resubscribed
    ? escapeHtml(TRACKING_MESSAGES.resubscribedDetail(view.workspaceName))
    : escapeHtml(TRACKING_MESSAGES.unsubscribeQuestion(view.workspaceName));
  return page(
    heading,
    `<h1>${heading}</h1>
<p>${address}: ${text}</p>
<form method="post" action="${action}">
<button type="submit"${view.resubscribed ? ' class="secondary"' : ''}>${TRACKING_MESSAGES.unsubscribeButton}</button>
</form>`,
  );
}

/** The page of a link that is not valid (forged, altered, or of a send that no longer exists). */
export function badTokenPage() {
  return page(
    CAMPAIGN_MESSAGES.badToken,
    `<h1>${CAMPAIGN_MESSAGES.badToken}</h1>
<p>Use the unsubscribe link of the email you received, or reply to that email.</p>`,
  );
}
