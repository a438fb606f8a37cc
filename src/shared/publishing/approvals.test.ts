import type { Roles } from '../permissions/permissions';
import {
  approverRoleLabel,
  isFullyApproved,
  myApproverRoles,
  needsApprovalFrom,
  remainingApprovals,
} from './approvals';

const roles: Roles = {
  legal: { name: 'Legal', canEdit: [], canPublish: [], mustApprove: ['blog-post', 'email'] },
  brand: { name: 'Brand', canEdit: [], canPublish: [], mustApprove: ['blog-post'] },
  editor: { name: 'Editor', canEdit: ['blog-post'], canPublish: [], mustApprove: [] },
};

describe('approvals', () => {
  it('clears remaining approvals role by role', () => {
    expect(remainingApprovals(roles, 'blog-post', [])).toEqual(['brand', 'legal']);
    expect(remainingApprovals(roles, 'blog-post', ['brand'])).toEqual(['legal']);
    expect(isFullyApproved(remainingApprovals(roles, 'blog-post', ['brand', 'legal']))).toBe(true);
  });

  it('treats a schema nobody must approve as fully approved', () => {
    expect(isFullyApproved(remainingApprovals(roles, 'copy', []))).toBe(true);
  });

  it("finds the member's approver roles and whether the item waits on them", () => {
    expect(myApproverRoles(roles, 'blog-post', ['editor', 'legal'])).toEqual(['legal']);
    expect(myApproverRoles(roles, 'copy', ['legal'])).toEqual([]);
    expect(needsApprovalFrom(['legal'], ['editor', 'legal'])).toBe(true);
    expect(needsApprovalFrom(['brand'], ['editor', 'legal'])).toBe(false);
  });

  it('labels a role by its name, else by its id', () => {
    expect(approverRoleLabel(roles, 'legal')).toBe('Legal');
    expect(approverRoleLabel(roles, 'gone')).toBe('gone');
  });
});
