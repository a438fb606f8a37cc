import { conflictingFilters, findSavedView, savedViews } from './saved-views';

describe('savedViews', () => {
  it('lists All, Last updated by me and Scheduled, then three views per stage', () => {
    const views = savedViews(['Staging', 'Live'], { roles: [] });
    expect(views.map((v) => [v.viewId, v.viewParam, v.label])).toEqual([
      ['all', undefined, 'All items'],
      ['last-updated-by-me', undefined, 'Last updated by me'],
      ['scheduled', undefined, 'Scheduled'],
      ['published-in', 'staging', 'Published in Staging'],
      ['outdated-in', 'staging', 'Outdated in Staging'],
      ['aging-in', 'staging', 'Aging in Staging'],
      ['published-in', 'live', 'Published in Live'],
      ['outdated-in', 'live', 'Outdated in Live'],
      ['aging-in', 'live', 'Aging in Live'],
    ]);
  });

  it("shows 'Need my approval' only to a user with roles", () => {
    expect(savedViews(['Live'], { roles: [] }).some((v) => v.viewId === 'need-my-approval')).toBe(false);
    const withRole = savedViews(['Live'], { roles: ['editor'] });
    expect(withRole[2]).toEqual({ viewId: 'need-my-approval', label: 'Need my approval' });
  });

  it('uses the kebab-case stage value as the view parameter', () => {
    const views = savedViews(['QA Review'], { roles: [] });
    expect(views.find((v) => v.viewId === 'aging-in')?.viewParam).toBe('qa-review');
  });
});

describe('findSavedView', () => {
  const views = savedViews(['Live'], { roles: [] });

  it('finds a plain view without a parameter', () => {
    expect(findSavedView(views, 'all', undefined)?.label).toBe('All items');
    expect(findSavedView(views, 'all', '')?.label).toBe('All items');
  });

  it('finds a per-stage view by its stage value', () => {
    expect(findSavedView(views, 'published-in', 'live')?.label).toBe('Published in Live');
  });

  it('refuses unknown views, unknown stages and views the user may not have', () => {
    expect(findSavedView(views, 'nonsense', undefined)).toBeUndefined();
    expect(findSavedView(views, 'published-in', 'staging')).toBeUndefined();
    expect(findSavedView(views, 'published-in', undefined)).toBeUndefined();
    expect(findSavedView(views, 'need-my-approval', undefined)).toBeUndefined();
  });
});

describe('conflictingFilters (spec §8 CONFLICTING FILTERS REMOVED)', () => {
  const published = { viewId: 'published-in', viewParam: 'live', label: 'Published in Live' };
  it('names URL filters that contradict the saved view, and only those', () => {
    expect(conflictingFilters(published, new URLSearchParams('view=all&stage=live&q=x'))).toEqual(['view']);
    expect(conflictingFilters(published, new URLSearchParams('stage=staging'))).toEqual(['stage']);
    expect(conflictingFilters(published, new URLSearchParams('view=published-in&stage=live'))).toEqual([]);
    expect(
      conflictingFilters({ viewId: 'all', label: 'All items' }, new URLSearchParams('stage=live')),
    ).toEqual(['stage']);
    expect(conflictingFilters({ viewId: 'all', label: 'All items' }, new URLSearchParams(''))).toEqual([]);
  });
});
