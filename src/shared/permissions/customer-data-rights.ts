/**
/**
 * Rights over customers' personal data (profiles, their events, the suppression list, audiences'
 * members, messages filled as a profile): a list of granted rights, not a level, so a role may erase
 * without exporting. Exporting and erasing both imply reading: neither can be done to a profile one
 * cannot find. Managers hold every right.
 */
export const CUSTOMER_DATA_RIGHTS = ['read', 'export', 'erase'] as const;
export type CustomerDataRight = (typeof CUSTOMER_DATA_RIGHTS)[number];
