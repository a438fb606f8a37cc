import fc from 'fast-check';
import type { Roles } from '../permissions/permissions';
import { AGING_DAYS, agingCutoff, matchesSavedView, parseSavedView, type ViewCandidate } from './saved-views';

const roles: Roles = { legal: { name: 'Legal', canEdit: [], canPublish: [], mustApprove: ['blog-post'] } };
const now = new Date('2027-03-01T12:00:00Z');
const context = { userId: 'me', memberRoleIds: ['legal'], roles, now };
const daysAgo = (days: number) => new Date(now.getTime() - days * 24 * 3600 * 1000);
const item = (overrides: Partial<ViewCandidate> = {}): ViewCandidate => ({
  schema: 'blog-post',
  version: 3,
  lastWrittenBy: 'someone',
  approvedRoles: [],
  copies: {},
  ...overrides,
});

describe('parseSavedView', () => {
  it('reads plain views, stage views with a parameter and the joined form', () => {
    expect(parseSavedView('all')).toEqual({ viewId: 'all' });
    expect(parseSavedView('need-my-approval')).toEqual({ viewId: 'need-my-approval' });
    expect(parseSavedView('published-in', 'live')).toEqual({ viewId: 'published-in', stage: 'live' });
    expect(parseSavedView('outdated-in-pre-prod')).toEqual({ viewId: 'outdated-in', stage: 'pre-prod' });
  });

  it('names no view for unknown ids, stage views without a stage and plain views with one', () => {
    expect(parseSavedView('everything')).toBeUndefined();
    expect(parseSavedView('aging-in')).toBeUndefined();
    expect(parseSavedView('all', 'live')).toBeUndefined();
  });

  it('never throws', () => {
    fc.assert(
      fc.property(fc.string(), fc.option(fc.string(), { nil: undefined }), (id, param) => {
        parseSavedView(id, param);
      }),
    );
  });
});

describe('matchesSavedView', () => {
  it('holds every item in all, and items I wrote last in last-updated-by-me', () => {
    expect(matchesSavedView({ viewId: 'all' }, item(), context)).toBe(true);
    expect(matchesSavedView({ viewId: 'last-updated-by-me' }, item({ lastWrittenBy: 'me' }), context)).toBe(
      true,
    );
    expect(matchesSavedView({ viewId: 'last-updated-by-me' }, item(), context)).toBe(false);
  });

  it('holds items waiting on one of my roles in need-my-approval', () => {
    const view = { viewId: 'need-my-approval' } as const;
    expect(matchesSavedView(view, item(), context)).toBe(true);
    expect(matchesSavedView(view, item({ approvedRoles: ['legal'] }), context)).toBe(false);
    expect(matchesSavedView(view, item({ schema: 'copy' }), context)).toBe(false);
    expect(matchesSavedView(view, item(), { ...context, memberRoleIds: [] })).toBe(false);
  });

  it('sorts stage copies into published, outdated and aging', () => {
    const current = item({ copies: { live: { version: 3, publishedAt: daysAgo(1) } } });
    const older = item({ copies: { live: { version: 2, publishedAt: daysAgo(AGING_DAYS + 1) } } });
    expect(matchesSavedView({ viewId: 'published-in', stage: 'live' }, current, context)).toBe(true);
    expect(matchesSavedView({ viewId: 'published-in', stage: 'staging' }, current, context)).toBe(false);
    expect(matchesSavedView({ viewId: 'outdated-in', stage: 'live' }, current, context)).toBe(false);
    expect(matchesSavedView({ viewId: 'outdated-in', stage: 'live' }, older, context)).toBe(true);
    expect(matchesSavedView({ viewId: 'aging-in', stage: 'live' }, current, context)).toBe(false);
    expect(matchesSavedView({ viewId: 'aging-in', stage: 'live' }, older, context)).toBe(true);
  });

  it('puts the aging cutoff 30 days back', () => {
    expect(agingCutoff(now).toISOString()).toBe('2027-01-30T12:00:00.000Z');
  });
});
