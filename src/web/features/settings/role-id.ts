import { toKebabCase } from '@shared/text/slug';

/** A new role's id: the kebab-case of its name, made unique among the existing ids. */
export function newRoleId(name: string, existing: readonly string[]): string {
  const base = toKebabCase(name).slice(0, 56) || 'role';
  const taken = new Set(existing);
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}
