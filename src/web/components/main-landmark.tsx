import { createContext, useContext, type ReactNode } from 'react';

const InsideMain = createContext(false);

/** Marks its children as already inside the page's main landmark (the app shell's). */
export function InsideMainLandmark({ children }: { children: ReactNode }) {
  return <InsideMain.Provider value={true}>{children}</InsideMain.Provider>;
}

/**
 * The page's main landmark (WCAG 1.3.1, 2.4.1), unless a layout around it already is one: the
 * not-found and error pages show both inside the app shell and on their own.
 */
export function MainLandmark({ children }: { children: ReactNode }) {
  return useContext(InsideMain) ? children : <main>{children}</main>;
}
