import type { QueryClient } from '@tanstack/react-query';
import { createItemLoader } from '../item-loader';

/** The single-item screen and its guard (the router lazy-loads both). */
export { default } from '../single-item-route';
export const createLoader = (client: QueryClient) => createItemLoader(client, {});
