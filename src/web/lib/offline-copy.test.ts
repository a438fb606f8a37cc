import { ApiError } from './api-client';
import { itemDraftKey, keepItemDraft, readItemDraft } from './item-drafts';
import { forgetOfflineCopies, withOfflineCopy } from './offline-copy';

const offline = () => Promise.reject(new ApiError(0, 'network_error', 'Cannot reach the server.'));

describe('withOfflineCopy', () => {
  beforeEach(() => localStorage.clear());

  it('answers the copy kept last time when the server cannot be reached', async () => {
    expect(await withOfflineCopy('me', async () => ({ name: 'Ann' }))).toEqual({ name: 'Ann' });
    expect(await withOfflineCopy('me', offline)).toEqual({ name: 'Ann' });
  });

  it('fails as before without a copy, and for answers of the server', async () => {
    await expect(withOfflineCopy('me', offline)).rejects.toThrow('Cannot reach the server.');
    await withOfflineCopy('ws', async () => 1);
    const refused = () => Promise.reject(new ApiError(404, 'not_found', 'Workspace not found'));
    await expect(withOfflineCopy('ws', refused)).rejects.toThrow('Workspace not found');
  });

  it('forgets every copy and every kept item draft (sign-out)', async () => {
    await withOfflineCopy('me', async () => 'Ann');
    const draft = itemDraftKey('acme', 'blog-post', 'post1');
    keepItemDraft(draft, 2, { name: 'Unsaved' });
    localStorage.setItem('other', 'kept');
    forgetOfflineCopies();
    await expect(withOfflineCopy('me', offline)).rejects.toThrow();
    expect(readItemDraft(draft)).toBeNull();
    expect(localStorage.getItem('other')).toBe('kept');
  });
});
