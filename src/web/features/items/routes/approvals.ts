import type { QueryClient } from '@tanstack/react-query';
import { createItemLoader } from '../item-loader';

/** The approvals screen and its guard (the router lazy-loads both). */
export { default } from '../approvals-route';
export const createLoader = (client: QueryClient) => createItemLoader(client, { approvals: true });
