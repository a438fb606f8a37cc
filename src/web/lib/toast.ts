import { notifications, type NotificationData } from '@mantine/notifications';

/** Where toasts appear: away from the header and the page title row with its stage chips. */
export const TOAST_POSITION = 'bottom-right';

/**
 * Shows a toast. A repeat of one still on screen or queued (same colour, title and message) is shown
 * once: its id is derived from its text, and the store ignores an id it already holds.
 */
export function showToast(data: NotificationData) {
  const isText = typeof data.message === 'string' && (data.title == null || typeof data.title === 'string');
  const id =
    data.id ?? (isText ? `toast:${data.color ?? ''}:${data.title ?? ''}:${data.message}` : undefined);
  return notifications.show({ ...data, id });
}
