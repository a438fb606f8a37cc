import { roleLabel } from './role-label';

describe('role label', () => {
  it('names the locales a role is limited to, and nothing for one that is not', () => {
    expect(roleLabel({ name: 'French editor', locales: ['fr-FR'] })).toBe('French editor (fr-FR only)');
    expect(roleLabel({ name: 'French editor', locales: ['fr-FR', 'fr-CA'] })).toBe(
      'French editor (fr-FR, fr-CA only)',
    );
    expect(roleLabel({ name: 'Editor', locales: [] })).toBe('Editor');
    expect(roleLabel({ name: 'Editor' })).toBe('Editor');
  });
});
