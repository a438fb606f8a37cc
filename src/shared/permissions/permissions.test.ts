import fc from 'fast-check';
import {
  approverRoleIds,
  can,
  deleteRefusal,
  effectivePermissions,
  trimMemberRoles,
  trimRoles,
  type Roles,
} from './permissions';

const COPY = { name: 'copy', pluralTitle: 'Copies' };

const roles: Roles = {
  editor: { name: 'Editor', canEdit: ['copy', 'event'], canPublish: [], mustApprove: [] },
  publisher: { name: 'Publisher', canEdit: ['copy'], canPublish: ['copy'], mustApprove: [] },
  legal: { name: 'Legal', canEdit: [], canPublish: [], mustApprove: ['copy'] },
};

describe('effectivePermissions', () => {
  it('is the union across the member roles', () => {
    const p = effectivePermissions(roles, {
      active: true,
      roles: ['editor', 'publisher'],
      isWorkspaceManager: false,
    });
    expect(p.canEdit).toEqual(['copy', 'event']);
    expect(p.canPublish).toEqual(['copy']);
    expect(p.canApprove).toEqual([]);
    expect(p.canManageWorkspace).toBe(false);
  });

  it('gives nothing to an inactive or missing member', () => {
    expect(
      effectivePermissions(roles, { active: false, roles: ['editor'], isWorkspaceManager: true }).canEdit,
    ).toEqual([]);
    expect(effectivePermissions(roles, undefined).canManageWorkspace).toBe(false);
  });

  it('ignores roles that no longer exist', () => {
    const p = effectivePermissions(roles, {
      active: true,
      roles: ['gone', 'legal'],
      isWorkspaceManager: true,
    });
    expect(p.roles).toEqual(['legal']);
    expect(p.canApprove).toEqual(['copy']);
    expect(p.canManageWorkspace).toBe(true);
  });
});

describe('can', () => {
  it('is true only when the schema is in the list for that action', () => {
    const p = effectivePermissions(roles, { active: true, roles: ['editor'], isWorkspaceManager: false });
    expect(can(p, 'edit', 'copy')).toBe(true);
    expect(can(p, 'publish', 'copy')).toBe(false);
    expect(can(p, 'approve', 'copy')).toBe(false);
    expect(can(p, 'edit', 'audience')).toBe(false);
  });

  it('agrees with the union of roles for any assignment', () => {
    const schemas = ['a', 'b', 'c', 'd'];
    const role = fc.record({
      name: fc.string(),
      canEdit: fc.subarray(schemas),
      canPublish: fc.subarray(schemas),
      mustApprove: fc.subarray(schemas),
    });
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom('r1', 'r2', 'r3'), role),
        fc.subarray(['r1', 'r2', 'r3']),
        (rs, held) => {
          const p = effectivePermissions(rs, { active: true, roles: held, isWorkspaceManager: false });
          for (const schema of schemas) {
            const expected = held.some((id) => rs[id]?.canEdit.includes(schema));
            expect(can(p, 'edit', schema)).toBe(expected);
          }
        },
      ),
    );
  });
});

describe('trimming on workspace save', () => {
  it('drops schemas that no longer exist from every list', () => {
    const trimmed = trimRoles(roles, ['copy']);
    expect(trimmed.editor.canEdit).toEqual(['copy']);
    expect(trimmed.legal.mustApprove).toEqual(['copy']);
  });

  it('drops roles that no longer exist from a member', () => {
    expect(trimMemberRoles(['editor', 'gone', 'editor'], roles)).toEqual(['editor']);
  });

  it('lists the roles that must approve a schema', () => {
    expect(approverRoleIds(roles, 'copy')).toEqual(['legal']);
    expect(approverRoleIds(roles, 'event')).toEqual([]);
  });
});

describe('customer data rights', () => {
  const withData: Roles = {
    support: { name: 'Support', canEdit: [], canPublish: [], mustApprove: [], customerData: ['read'] },
    privacy: { name: 'Privacy', canEdit: [], canPublish: [], mustApprove: [], customerData: ['erase'] },
    editor: roles.editor,
  };
  const member = (held: string[], isWorkspaceManager = false) =>
    effectivePermissions(withData, { active: true, roles: held, isWorkspaceManager });

  it('grants nothing to a role without the setting', () => {
    const p = member(['editor']);
    expect(p.customerData).toEqual([]);
    expect(can(p, 'customerData', 'read')).toBe(false);
  });

  it('is the union across the member roles; erase and export imply read', () => {
    expect(member(['support']).customerData).toEqual(['read']);
    expect(member(['privacy']).customerData).toEqual(['read', 'erase']);
    expect(can(member(['support', 'privacy']), 'customerData', 'export')).toBe(false);
  });

  it('gives a manager every right, and an inactive member none', () => {
    expect(member([], true).customerData).toEqual(['read', 'export', 'erase']);
    expect(
      effectivePermissions(withData, { active: false, roles: ['support'], isWorkspaceManager: true })
        .customerData,
    ).toEqual([]);
  });

  it('is stored trimmed on save: known rights once each, in order, read added when implied', () => {
    const trimmed = trimRoles(
      { r: { ...roles.editor, customerData: ['erase', 'export', 'erase'] }, s: roles.legal },
      ['copy'],
    );
    expect(trimmed.r.customerData).toEqual(['read', 'export', 'erase']);
    expect(trimmed.s.customerData).toEqual([]);
  });
});

describe('deleteRefusal', () => {
  const member = (held: string[], extra: Roles = {}) =>
    effectivePermissions({ ...roles, ...extra }, { active: true, roles: held, isWorkspaceManager: false });
  const french = { french: { ...roles.publisher!, name: 'French', locales: ['fr-FR'] } };

  it('needs the edit right, in every locale, and the publish right once published', () => {
    expect(deleteRefusal(member(['publisher']), COPY, true)).toBeNull();
    expect(deleteRefusal(member(['editor']), COPY, false)).toBeNull();
    expect(deleteRefusal(member(['editor']), COPY, true)).toMatch(
      /^You do not have permission to delete published Copies/,
    );
    expect(deleteRefusal(member(['legal']), COPY, false)).toBe('You do not have permission to edit Copies');
    expect(deleteRefusal(member(['french'], french), COPY, false)).toMatch(/you may edit only fr-FR$/);
    // A role without the limit lifts it.
    expect(deleteRefusal(member(['french', 'publisher'], french), COPY, true)).toBeNull();
  });
});
