import { useCallback } from 'react';
import { useRegisterSW } from 'virtual:pwa-register/react';
import { UpdateNoticeView } from './update-notice-view';

/**
 * Registers the service worker and, when a newer build has been installed beside the running one, offers
 * REFRESH (activate it and reload) or IGNORE (spec §8).
 */
export function UpdateNotice() {
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW();
  const handleIgnore = useCallback(() => setNeedRefresh(false), [setNeedRefresh]);
  return (
    <UpdateNoticeView
      isOpen={needRefresh}
      onRefresh={() => void updateServiceWorker(true)}
      onIgnore={handleIgnore}
    />
  );
}
