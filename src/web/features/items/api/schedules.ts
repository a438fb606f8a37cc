import { useEffect, useRef } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Schedule, ScheduleList, type CreateScheduleBody } from '@shared/api/schedules';
import { apiRequest } from '@web/lib/api-client';
import { itemKeys, itemPath } from './keys';

const schedulesKey = (ws: string, schema: string, id: string) =>
  [...itemKeys.detail(ws, schema, id), 'schedules'] as const;
const schedulesPath = (ws: string, schema: string, id: string) => `${itemPath(ws, schema, id)}/schedules`;

/**
 * GET …/schedules: the item's planned publishes. While one is pending it is polled every 5 s, and when
 * one has run the item and the lists are refreshed, so the publish chips change on their own.
 */
export function useSchedules(ws: string, schema: string, id: string) {
  const client = useQueryClient();
  const query = useQuery({
    queryKey: schedulesKey(ws, schema, id),
    queryFn: () => apiRequest(schedulesPath(ws, schema, id), { schema: ScheduleList }),
    refetchInterval: (q) =>
      q.state.data?.schedules.some((s) => s.status === 'pending' || s.status === 'running') ? 5000 : false,
  });
  const pendingBefore = useRef<Set<string>>(new Set());
  useEffect(() => {
    const schedules = query.data?.schedules ?? [];
    const hasRun = schedules.some(
      (s) => pendingBefore.current.has(s.id) && (s.status === 'done' || s.status === 'refused'),
    );
    pendingBefore.current = new Set(
      schedules.filter((s) => s.status === 'pending' || s.status === 'running').map((s) => s.id),
    );
    if (hasRun) void client.invalidateQueries({ queryKey: itemKeys.all(ws) });
  }, [query.data, client, ws]);
  return query;
}

/** POST …/schedules. Invalidates: the item's schedules and the lists (the 'Scheduled' view). */
export function useCreateSchedule(ws: string, schema: string, id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateScheduleBody) =>
      apiRequest(schedulesPath(ws, schema, id), { method: 'POST', body, schema: Schedule }),
    onSuccess: () => client.invalidateQueries({ queryKey: itemKeys.all(ws) }),
  });
}

/** DELETE …/schedules/{scheduleId}: cancels it. Invalidates: the item's schedules and the lists. */
export function useCancelSchedule(ws: string, schema: string, id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (scheduleId: string) =>
      apiRequest(`${schedulesPath(ws, schema, id)}/${encodeURIComponent(scheduleId)}`, {
        method: 'DELETE',
        schema: Schedule,
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: itemKeys.all(ws) }),
  });
}
