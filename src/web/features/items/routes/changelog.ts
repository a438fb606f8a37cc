import type { QueryClient } from '@tanstack/react-query';
import { createItemLoader } from '../item-loader';

/** The changelog screen and its guard (the router lazy-loads both). */
export { default } from '../changelog-route';
export const createLoader = (client: QueryClient) => createItemLoader(client, { history: true });
