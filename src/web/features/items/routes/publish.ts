import type { QueryClient } from '@tanstack/react-query';
import { createItemLoader } from '../item-loader';

/** The publish screen and its guard (the router lazy-loads both). */
export { default } from '../publish-route';
export const createLoader = (client: QueryClient) => createItemLoader(client, {});
