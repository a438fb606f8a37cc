import { BUILT_IN_MODEL } from '@shared/model/registry';
import { canUploadImages, editableTypes, newItemPath } from './editable-types';

const workspace = (domains: string[], canEdit: string[], canManageWorkspace = false) => ({
  basics: { name: 'Acme', domains, stages: ['Live'], timezones: [], dateFormat: 'relative' },
  __permissions: { canEdit, canPublish: [], canApprove: [], canManageWorkspace, roles: [], customerData: [] },
});

describe('editableTypes', () => {
  it('groups the types the user may edit by the domains they see', () => {
    const groups = editableTypes(
      workspace(['marketing', 'blogging', 'assets'], ['copy', 'event', 'blog-post']),
      BUILT_IN_MODEL,
    );
    expect(groups.map((g) => [g.domain.name, g.schemas.map((s) => s.name)])).toEqual([
      ['marketing', ['copy', 'event']],
      ['blogging', ['blog-post']],
    ]);
  });

  it('leaves out types of domains the workspace has not enabled, and admin domains for non-managers', () => {
    expect(
      editableTypes(workspace(['blogging'], ['copy', 'blog-post']), BUILT_IN_MODEL).flatMap((g) =>
        g.schemas.map((s) => s.name),
      ),
    ).toEqual(['blog-post']);
    expect(editableTypes(workspace(['admin'], ['client-task']), BUILT_IN_MODEL)).toEqual([]);
    expect(
      editableTypes(workspace(['admin'], ['client-task'], true), BUILT_IN_MODEL).map((g) => g.domain.name),
    ).toEqual(['admin']);
  });

  it('is empty for a user who may edit nothing', () => {
    expect(editableTypes(workspace(['marketing', 'blogging'], []), BUILT_IN_MODEL)).toEqual([]);
  });
});

describe('canUploadImages', () => {
  it('needs edit on marquee-assets-image-set in a visible domain', () => {
    expect(
      canUploadImages(editableTypes(workspace(['assets'], ['marquee-assets-image-set']), BUILT_IN_MODEL)),
    ).toBe(true);
    expect(
      canUploadImages(editableTypes(workspace(['blogging'], ['marquee-assets-image-set']), BUILT_IN_MODEL)),
    ).toBe(false);
    expect(
      canUploadImages(editableTypes(workspace(['assets', 'blogging'], ['blog-post']), BUILT_IN_MODEL)),
    ).toBe(false);
  });
});

it("new items open under the id 'new'", () => {
  expect(newItemPath('acme', 'marketing', 'copy')).toBe('/acme/marketing/copy/new');
});
