import fc from 'fast-check';
import { decideSave, formActions } from './form-actions';

describe('formActions', () => {
  it('enables Save only when dirty and valid or saving with errors is allowed; Reset only when dirty', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.boolean(), fc.boolean(), (dirty, valid, allowSaveWithErrors) => {
        expect(formActions({ dirty, valid, allowSaveWithErrors })).toEqual({
          canSave: dirty && (valid || allowSaveWithErrors),
          canReset: dirty,
        });
      }),
    );
    expect(formActions({ dirty: true, valid: false })).toEqual({ canSave: false, canReset: true });
  });
});

describe('decideSave', () => {
  it('saves a valid item without errors', () => {
    expect(decideSave({})).toEqual({ allowed: true, hasErrors: false });
    expect(decideSave({}, true)).toEqual({ allowed: true, hasErrors: false });
  });

  it("blocks an invalid item with 'Please fix validation errors before saving'", () => {
    expect(decideSave({ name: 'Name is required' })).toEqual({
      allowed: false,
      message: 'Please fix validation errors before saving',
    });
  });

  it('stores an invalid item with errors and the incomplete banner when allowed', () => {
    expect(decideSave({ name: 'Name is required' }, true)).toEqual({
      allowed: true,
      hasErrors: true,
      banner: 'This item is incomplete. You may save it as is. Finish editing before publishing.',
    });
  });
});
