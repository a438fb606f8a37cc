import { useEffect, useRef, useState } from 'react';

/**
 * Which dialog is open. The dialogs unmount as they close, before Mantine could give focus back to the
 * button that opened them: this does it.
 */
export function useDialog<T>() {
  const [dialog, setDialog] = useState<T | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (dialog === null && opener.current?.isConnected) opener.current.focus();
  }, [dialog]);
  const open = (next: T) => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setDialog(next);
  };
  return [dialog, open, () => setDialog(null)] as const;
}
