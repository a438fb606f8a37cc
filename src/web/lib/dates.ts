import relativeTime from 'dayjs/plugin/relativeTime';
import { dayjs } from '@shared/time/dayjs';
import { DATE_DISPLAY_FORMAT } from '@shared/time/zones';

dayjs.extend(relativeTime);

/** Spec §9 display format: 'ddd MMM Do, YYYY h:mm A'. */
export const formatDateTime = (iso: string) => dayjs(iso).format(DATE_DISPLAY_FORMAT);

export const fromNow = (iso: string) => dayjs(iso).fromNow();
