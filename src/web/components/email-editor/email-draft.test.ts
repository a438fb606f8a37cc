import { clearDraft, differsFrom, draftKey, readDraft, writeDraft } from './email-draft';

describe('email drafts in browser storage', () => {
  beforeEach(() => localStorage.clear());

  it('keeps, reads back and clears a draft per item screen', () => {
    const key = draftKey('/acme/marketing/email/abc');
    expect(readDraft(key)).toBeNull();
    writeDraft(key, { 'gjs-nl-html': '<p>x</p>', 'gjs-nl-css': '' });
    const draft = readDraft(key)!;
    expect(draft.template['gjs-nl-html']).toBe('<p>x</p>');
    expect(Number.isNaN(Date.parse(draft.savedAt))).toBe(false);
    expect(readDraft(draftKey('/acme/marketing/email/other'))).toBeNull();
    clearDraft(key);
    expect(readDraft(key)).toBeNull();
  });

  it('ignores broken entries and offers only drafts that differ', () => {
    localStorage.setItem(draftKey('/x'), '{not json');
    expect(readDraft(draftKey('/x'))).toBeNull();
    const draft = {
      savedAt: new Date().toISOString(),
      template: { 'gjs-nl-html': '<p>a</p>', 'gjs-nl-css': '' },
    };
    expect(differsFrom(draft, { 'gjs-nl-html': '<p>a</p>', 'gjs-nl-css': '' })).toBe(false);
    expect(differsFrom(draft, { 'gjs-nl-html': '<p>b</p>' })).toBe(true);
    expect(differsFrom(draft, undefined)).toBe(true);
  });
});
