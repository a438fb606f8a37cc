import { applyPatch, ScimPatchError } from './patch';

const CORE = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const patch = (resource: Record<string, unknown>, ...ops: object[]) =>
  applyPatch(resource, ops as never, [CORE, ENTERPRISE], CORE);

describe('SCIM PATCH', () => {
  const ada = {
    userName: 'ada@corp.test',
    name: { givenName: 'Ada' },
    emails: [{ value: 'ada@corp.test', type: 'work', primary: true }],
    active: true,
  };

  it('replaces and adds by path, sub-attribute and value filter, leaving the resource given as it was', () => {
    const out = patch(
      ada,
      { op: 'replace', path: 'active', value: false },
      { op: 'replace', path: 'NAME.familyName', value: 'Lovelace' },
      { op: 'replace', path: 'emails[type eq "work"].value', value: 'ada@new.test' },
      { op: 'add', path: 'emails[type eq "home"].value', value: 'ada@home.test' },
    );
    expect(out).toMatchObject({ active: false, name: { givenName: 'Ada', familyName: 'Lovelace' } });
    expect(out.emails).toEqual([
      { value: 'ada@new.test', type: 'work', primary: true },
      { type: 'home', value: 'ada@home.test' },
    ]);
    expect(ada.active).toBe(true);
  });

  it("takes Entra ID's value objects whose keys are paths, and extension URNs", () => {
    const out = patch(
      ada,
      { op: 'Replace', value: { active: false, 'name.givenName': 'A.' } },
      { op: 'Add', path: `${ENTERPRISE}:department`, value: 'R&D' },
      { op: 'add', path: ENTERPRISE, value: { costCenter: '42' } },
      { op: 'replace', path: `${CORE}:userName`, value: 'ada@else.test' },
    );
    expect(out).toMatchObject({ active: false, userName: 'ada@else.test', name: { givenName: 'A.' } });
    expect(out[ENTERPRISE]).toEqual({ department: 'R&D', costCenter: '42' });
  });

  it('adds to and removes from a multi-valued attribute by filter or by value, without duplicates', () => {
    const group = { displayName: 'G', members: [{ value: 'a' }, { value: 'b' }] };
    const ops = (...o: object[]) => applyPatch(group, o as never, ['g'], 'g');
    expect(ops({ op: 'add', path: 'members', value: [{ value: 'b' }, { value: 'c' }] }).members).toEqual([
      { value: 'a' },
      { value: 'b' },
      { value: 'c' },
    ]);
    expect(ops({ op: 'remove', path: 'members[value eq "a"]' }).members).toEqual([{ value: 'b' }]);
    expect(ops({ op: 'remove', path: 'members', value: [{ value: 'b' }] }).members).toEqual([{ value: 'a' }]);
    expect(ops({ op: 'remove', path: 'members' }).members).toBeUndefined();
  });

  it('refuses what it cannot apply with the scimType RFC 7644 names', () => {
    const typeOf = (op: object) => {
      try {
        patch(ada, op);
        return 'applied';
      } catch (err) {
        return err instanceof ScimPatchError ? err.scimType : 'other';
      }
    };
    expect(typeOf({ op: 'move', path: 'active' })).toBe('invalidSyntax');
    expect(typeOf({ op: 'remove' })).toBe('noTarget');
    expect(typeOf({ op: 'replace', path: 'emails[type eq ].value', value: 'x' })).toBe('invalidFilter');
    expect(typeOf({ op: 'replace', path: 'urn:x:y:attr', value: 'x' })).toBe('invalidPath');
    expect(typeOf({ op: 'replace', path: 'emails.value', value: 'x' })).toBe('invalidPath');
    expect(typeOf({ op: 'replace', value: 3 })).toBe('invalidValue');
    expect(typeOf({ op: 'replace', path: 'emails[value co "x"].value', value: 'y' })).toBe('noTarget');
  });
});
