import { DEFAULT_THEME, createTheme, type MantineColorsTuple } from '@mantine/core';

/** Marquee's brand violet, generated around #5b4bdb. */
const marquee: MantineColorsTuple = [
  '#f0eeff',
  '#dcd8fb',
  '#b6adf2',
  '#8e80ea',
  '#6c5ae3',
  '#5b4bdb',
  '#4c3ccc',
  '#3f31b3',
  '#352a9d',
  '#2a2188',
];

/**
 * Mantine's greys with a darker shade 6, which is also the `dimmed` text colour: the default #868e96
 * reaches only 3.3:1 on white; #636a72 keeps 4.5:1 (WCAG AA) on white, gray.0–2 and marquee.0.
 */
const gray = DEFAULT_THEME.colors.gray.map((shade, index) =>
  index === 6 ? '#636a72' : shade,
) as unknown as MantineColorsTuple;

export const theme = createTheme({
  primaryColor: 'marquee',
  primaryShade: 5,
  // Dialogs, menus and drawers open without moving for people who ask their system for less motion.
  respectReducedMotion: true,
  colors: { marquee, gray },
  defaultRadius: 'md',
  fontFamily:
    'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: {
    fontFamily:
      'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
    fontWeight: '650',
  },
  cursorType: 'pointer',
  components: {
    Button: { defaultProps: { fw: 550 } },
    // Dialogs' and notifications' close buttons are icons only; give them a name (WCAG 4.1.2).
    CloseButton: { defaultProps: { 'aria-label': 'Close' } },
    Paper: { defaultProps: { withBorder: true } },
    Card: { defaultProps: { withBorder: true } },
    TextInput: { defaultProps: { size: 'sm' } },
    // Mantine's focus placeholder is a focusable non-item inside role="menu" (axe: aria-required-children);
    // without it, focusable items let the menu's focus trap land on the first item instead.
    Menu: { defaultProps: { withInitialFocusPlaceholder: false, menuItemTabIndex: 0 } },
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } } },
  },
});
