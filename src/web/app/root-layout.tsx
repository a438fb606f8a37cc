import { useEffect } from 'react';
import { Outlet, ScrollRestoration, useLocation, useNavigation, type Location } from 'react-router';
import { CookieNotice } from '@web/components/cookie-notice';
import { OfflineNotice } from '@web/components/offline-notice';
import { logEvent } from '@web/lib/analytics';
import { rememberLocation } from './guard-actions';

/**
 * Where ScrollRestoration keeps a screen's scroll position. A page loaded afresh (typed, reloaded, opened
 * from a link outside the app) has the history key 'default', the same for every such load, so the
 * position saved by one page was restored on the next one: late, once its lazy parts had loaded, it
 * jumped to the top under the user's pointer and left an open dropdown detached. Those loads are keyed
 * by their URL instead; in-app navigations keep their own history keys, so Back still restores.
 */
const scrollKey = (location: Location) =>
  location.key === 'default' ? location.pathname + location.search : location.key;

/** Top of every screen: loading bar while guards run, offline notice, scroll reset, page views, cookie notice. */
export function RootLayout() {
  const navigation = useNavigation();
  const location = useLocation();
  const url = location.pathname + location.search;

  useEffect(() => {
    rememberLocation(url);
    logEvent('page_view', undefined, url);
  }, [url]);

  return (
    <>
      {navigation.state !== 'idle' && (
        <div className="route-progress" role="progressbar" aria-label="Loading" />
      )}
      <OfflineNotice />
      <Outlet />
      <ScrollRestoration getKey={scrollKey} />
      <CookieNotice />
    </>
  );
}
