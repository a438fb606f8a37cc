import type { QueryClient } from '@tanstack/react-query';
import { createItemLoader } from '../item-loader';

/** The unpublish screen and its guard (the router lazy-loads both). */
export { default } from '../unpublish-route';
export const createLoader = (client: QueryClient) => createItemLoader(client, {});
