import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Release,
  ReleaseList,
  ReleaseReferences,
  ReleaseSummary,
  type AddEntriesBody,
  type CreateReleaseBody,
  type UpdateReleaseBody,
} from '@shared/api/releases';
import { apiRequest } from '@web/lib/api-client';

/** Every key starts with ['workspaces', ws, 'releases']: a change invalidates the list and the release at once. */
const releaseKeys = {
  all: (ws: string) => ['workspaces', ws, 'releases'] as const,
  list: (ws: string) => [...releaseKeys.all(ws), 'list'] as const,
  detail: (ws: string, id: string) => [...releaseKeys.all(ws), 'detail', id] as const,
  references: (ws: string, id: string) => [...releaseKeys.all(ws), 'references', id] as const,
};

const seg = encodeURIComponent;
const releasesPath = (ws: string) => `/api/v1/workspaces/${seg(ws)}/releases`;
const releasePath = (ws: string, id: string) => `${releasesPath(ws)}/${seg(id)}`;

/** GET …/releases: every release of the workspace, newest first. */
export const useReleases = (ws: string, enabled = true) =>
  useQuery({
    queryKey: releaseKeys.list(ws),
    queryFn: () => apiRequest(releasesPath(ws), { schema: ReleaseList }),
    enabled,
  });

/** GET …/releases/{id}: the release with each entry's version, approvals, rights and blockers. */
export const useRelease = (ws: string, id: string) =>
  useQuery({
    queryKey: releaseKeys.detail(ws, id),
    queryFn: () => apiRequest(releasePath(ws, id), { schema: Release }),
    // Read again while its scheduled publish is due or running, to show how it went.
    refetchInterval: (query) => (isScheduleDue(query.state.data) ? SCHEDULE_POLL_MS : false),
  });

const SCHEDULE_POLL_MS = 2000;

function isScheduleDue(release: Release | undefined) {
  if (release?.scheduleStatus === 'running') return true;
  return (
    release?.scheduleStatus === 'pending' &&
    release.publishAt !== null &&
    Date.parse(release.publishAt) <= Date.now()
  );
}

/** GET …/releases/{id}/references: referenced items not current in the release's stage, not in it yet. */
export const useReleaseReferences = (ws: string, id: string, enabled: boolean) =>
  useQuery({
    queryKey: releaseKeys.references(ws, id),
    queryFn: () => apiRequest(`${releasePath(ws, id)}/references`, { schema: ReleaseReferences }),
    enabled,
  });

/** A release answer replaces the cached release; the list (counts, states) is read again. */
function useReleaseAnswer(ws: string) {
  const client = useQueryClient();
  return (release: Release) => {
    client.setQueryData(releaseKeys.detail(ws, release.id), release);
    void client.invalidateQueries({ queryKey: releaseKeys.list(ws) });
    void client.invalidateQueries({ queryKey: releaseKeys.references(ws, release.id) });
  };
}

/** POST …/releases. */
export function useCreateRelease(ws: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateReleaseBody) =>
      apiRequest(releasesPath(ws), { method: 'POST', body, schema: ReleaseSummary }),
    onSuccess: () => client.invalidateQueries({ queryKey: releaseKeys.list(ws) }),
  });
}

/** PATCH …/releases/{id}: 409 when the release changed since it was read. */
export function useUpdateRelease(ws: string, id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateReleaseBody) =>
      apiRequest(releasePath(ws, id), { method: 'PATCH', body, schema: ReleaseSummary }),
    onSettled: () => client.invalidateQueries({ queryKey: releaseKeys.all(ws) }),
  });
}

/** DELETE …/releases/{id}. */
export function useDeleteRelease(ws: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest(releasePath(ws, id), { method: 'DELETE' }),
    onSuccess: (_, id) => {
      client.removeQueries({ queryKey: releaseKeys.detail(ws, id) });
      void client.invalidateQueries({ queryKey: releaseKeys.list(ws) });
    },
  });
}

/** POST …/releases/{id}/entries: adds items, or pins a version of those already in. */
export function useAddEntries(ws: string) {
  const onAnswer = useReleaseAnswer(ws);
  return useMutation({
    mutationFn: ({ id, entries }: { id: string; entries: AddEntriesBody['entries'] }) =>
      apiRequest(`${releasePath(ws, id)}/entries`, { method: 'POST', body: { entries }, schema: Release }),
    onSuccess: onAnswer,
  });
}

/** DELETE …/releases/{id}/entries. */
export function useRemoveEntries(ws: string, id: string) {
  const onAnswer = useReleaseAnswer(ws);
  return useMutation({
    mutationFn: (itemIds: string[]) =>
      apiRequest(`${releasePath(ws, id)}/entries`, { method: 'DELETE', body: { itemIds }, schema: Release }),
    onSuccess: onAnswer,
  });
}

/** POST …/publish or …/revert: the stage changes, so item lists and screens are read again too. */
export function useReleaseAction(ws: string, id: string, action: 'publish' | 'revert') {
  const onAnswer = useReleaseAnswer(ws);
  const client = useQueryClient();
  return useMutation({
    mutationFn: (options?: { publishRefs: boolean }) =>
      apiRequest(`${releasePath(ws, id)}/${action}`, {
        method: 'POST',
        ...(action === 'publish' ? { body: { publishRefs: options?.publishRefs ?? false } } : {}),
        schema: Release,
      }),
    onSuccess: (release) => {
      onAnswer(release);
      // Every item list and screen of the workspace (the items feature's key prefix).
      void client.invalidateQueries({ queryKey: ['workspaces', ws, 'items'] });
    },
    // A refusal (409 with each entry's blockers) means the release as shown is out of date.
    onError: () => client.invalidateQueries({ queryKey: releaseKeys.detail(ws, id) }),
  });
}
