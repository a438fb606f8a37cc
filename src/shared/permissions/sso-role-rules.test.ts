import { rolesFromClaims } from './sso-role-rules';

const roles = { editor: {}, publisher: {}, reviewer: {} };
const rule = (claim: string, value: string, granted: string[], isWorkspaceManager = false) => ({
  claim,
  value,
  roles: granted,
  isWorkspaceManager,
});

describe('rolesFromClaims', () => {
  it('grants the roles of every matching rule, from lists and single values', () => {
    const rules = [
      rule('groups', 'marketing', ['editor']),
      rule('groups', 'web', ['publisher', 'editor']),
      rule('department', 'legal', ['reviewer']),
    ];
    expect(rolesFromClaims(rules, { groups: ['web', 'marketing'], department: 'sales' }, roles)).toEqual({
      roles: ['editor', 'publisher'],
      isWorkspaceManager: false,
    });
    expect(rolesFromClaims(rules, { department: 'legal' }, roles).roles).toEqual(['reviewer']);
  });

  it('grants manager rights by group and nothing when no rule matches', () => {
    const rules = [rule('groups', 'cms-admins', [], true)];
    expect(rolesFromClaims(rules, { groups: ['cms-admins'] }, roles).isWorkspaceManager).toBe(true);
    expect(rolesFromClaims(rules, { groups: 'cms-admins-old' }, roles)).toEqual({
      roles: [],
      isWorkspaceManager: false,
    });
  });

  it('leaves out roles the workspace no longer has and ignores object claims', () => {
    const rules = [rule('groups', 'x', ['gone', 'editor']), rule('address', 'x', ['publisher'])];
    expect(rolesFromClaims(rules, { groups: ['x'], address: { x: 'x' } }, roles).roles).toEqual(['editor']);
  });
});
