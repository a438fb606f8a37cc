import { createContext, useContext, type ReactNode } from 'react';

/** How many quick view panels enclose this part of the page: 0 on a plain page. */
const QuickViewLevelContext = createContext(0);

/** Inside a quick view (or any modal that provides a level) lists open nested panels instead of navigating. */
export const useQuickViewLevel = () => useContext(QuickViewLevelContext);

export function QuickViewLevelProvider({ level, children }: { level: number; children: ReactNode }) {
  return <QuickViewLevelContext.Provider value={level}>{children}</QuickViewLevelContext.Provider>;
}
