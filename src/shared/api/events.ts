import { z } from 'zod';

/** Spec §3 Analytics event doc; xmUser and xmSession are taken from the caller's session by the server. */
export const EventBody = z.object({
  eventType: z.string().trim().min(1).max(80).describe('e.g. page_view, navigation_failed, controller_error'),
  url: z.string().max(2000),
  xmWs: z.string().max(100).optional().describe('Workspace id the event happened in'),
  data: z.record(z.string(), z.unknown()).optional(),
});
export type EventBody = z.infer<typeof EventBody>;
