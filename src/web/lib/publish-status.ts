import type { PublishStatus } from '@shared/publishing/status';

/** The words of a publishing chip per status (spec §4). */
export const PUBLISH_STATUS_WORDS: Record<PublishStatus, string> = {
  NOT_PUBLISHED: 'Not published',
  MODIFIED: 'Modified',
  CURRENT: 'Current',
};

/** Mantine colours of the publishing chips: MODIFIED is a warning, CURRENT is positive (spec §4). */
export const PUBLISH_STATUS_COLORS: Record<PublishStatus, string> = {
  NOT_PUBLISHED: 'gray',
  MODIFIED: 'orange',
  CURRENT: 'teal',
};
