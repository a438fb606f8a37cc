import { z } from 'zod';

/** The workspace dashboard's numbers: `GET /api/v1/workspaces/{ws}/stats`, all from aggregate SQL. */
export const STATS_ACTIVITY_DAYS = 30;

export const WorkspaceStats = z.object({
  itemsBySchema: z
    .array(z.object({ schema: z.string(), count: z.number() }))
    .describe('Items per schema of the enabled domains the caller sees'),
  publishStatus: z
    .array(
      z.object({
        stage: z.string().describe('Stage value'),
        label: z.string(),
        current: z.number().describe('Published copy is the current version'),
        modified: z.number().describe('Published copy is older than the current version'),
        notPublished: z.number(),
      }),
    )
    .describe('Publish status per stage, over the same items'),
  approvals: z.object({
    waitingOnMe: z
      .number()
      .describe("Items whose current version awaits an approval from one of the caller's roles"),
    byRole: z.array(z.object({ roleId: z.string(), label: z.string(), count: z.number() })),
  }),
  publishing: z
    .array(z.object({ day: z.string().describe('YYYY-MM-DD (UTC)'), count: z.number() }))
    .describe(
      `Latest publish of each item and stage, per day of the last ${STATS_ACTIVITY_DAYS} days (days without any included)`,
    ),
  changesByMember: z
    .array(z.object({ userId: z.string(), name: z.string(), count: z.number() }))
    .describe(`Saved versions per member over the last ${STATS_ACTIVITY_DAYS} days, most first`),
  audienceSizes: z
    .array(
      z.object({
        audienceId: z.string(),
        name: z.string(),
        points: z.array(
          z.object({
            day: z.string().describe('YYYY-MM-DD (UTC)'),
            size: z.number().nullable().describe("null when the audience's criteria did not check that day"),
          }),
        ),
      }),
    )
    .describe(
      `Recorded sizes of each audience over the last ${STATS_ACTIVITY_DAYS} days (daily, and whenever the audience list measures them), oldest first`,
    ),
});
export type WorkspaceStats = z.infer<typeof WorkspaceStats>;

/** The spec's generic visualisation GET: results stored under timestamp keys, newest first. */
export const VISUALISATION_MESSAGES = {
  notConfigured: 'Visualisation not configured',
} as const;
export const VISUALISATION_HISTORY = 30;
/** What switches the visualisation on. */
export const VISUALISATION_SETTING = { setting: 'VISUALISATION_URL' };

export const VisualisationResult = z.object({
  key: z.string().describe('Timestamp key of the fetch (ISO 8601)'),
  result: z.unknown().describe('The JSON the visualisation service answered'),
  fetchedBy: z.string(),
});
export type VisualisationResult = z.infer<typeof VisualisationResult>;

export const Visualisation = z.object({
  configured: z.boolean().describe('Whether VISUALISATION_URL is set on the server'),
  latest: VisualisationResult.nullable(),
  history: z.array(VisualisationResult).describe(`The last ${VISUALISATION_HISTORY} results, newest first`),
});
export type Visualisation = z.infer<typeof Visualisation>;
