import { newRoleId } from './role-id';

describe('newRoleId', () => {
  it('is the kebab-case of the name', () => {
    expect(newRoleId('Content Editor', [])).toBe('content-editor');
  });

  it('adds a number when the id is taken', () => {
    expect(newRoleId('Editor', ['editor'])).toBe('editor-2');
    expect(newRoleId('Editor', ['editor', 'editor-2'])).toBe('editor-3');
  });

  it('falls back to "role" for names without letters or digits', () => {
    expect(newRoleId('!!!', [])).toBe('role');
    expect(newRoleId('', ['role'])).toBe('role-2');
  });

  it('gives ids the workspace schema accepts', () => {
    const id = newRoleId('A'.repeat(200), []);
    expect(id).toMatch(/^[a-z0-9][a-z0-9-]{0,62}$/);
  });
});
