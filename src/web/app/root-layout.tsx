import { useEffect } from 'react';
import { Outlet, ScrollRestoration, useLocation, useNavigation } from 'react-router';
import { CookieNotice } from '@web/components/cookie-notice';
import { OfflineNotice } from '@web/components/offline-notice';
import { logEvent } from '@web/lib/analytics';
import { rememberLocation } from './guard-actions';

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
      <ScrollRestoration />
      <CookieNotice />
    </>
  );
}
