import { detailOptions, SERVICE_DETAILS } from './services';

describe('detailOptions', () => {
  it('offers the pages a Facebook account manages, by id with the name', () => {
    const [, page] = SERVICE_DETAILS.facebook;
    const profile = { pageAccounts: [{ id: '1001', name: 'Acme Page' }, { id: '', name: 'no id' }, 'x'] };
    expect(detailOptions(page, profile)).toEqual([
      { value: '1001', label: 'Acme Page (1001)' },
      { value: 'x', label: 'x' },
    ]);
  });

  it('offers Google Ads customer ids as themselves, and nothing without a list', () => {
    const [parent] = SERVICE_DETAILS['google-ads'];
    expect(detailOptions(parent, { customers: ['123', '456'] })).toEqual([
      { value: '123', label: '123' },
      { value: '456', label: '456' },
    ]);
    expect(detailOptions(parent, {})).toEqual([]);
    expect(detailOptions(parent, null)).toEqual([]);
  });
});
