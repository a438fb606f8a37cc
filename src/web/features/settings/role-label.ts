import type { Role } from '@shared/permissions/permissions';

/** How a role's locale limit reads: 'fr-FR only', 'fr-FR, fr-CA only'. */
export const localeLimitLabel = (tags: readonly string[]) => `${tags.join(', ')} only`;

/** A role's name, with its locale limit when it has one: 'French editor (fr-FR only)'. */
export const roleLabel = (role: Pick<Role, 'name' | 'locales'>) =>
  role.locales?.length ? `${role.name} (${localeLimitLabel(role.locales)})` : role.name;
