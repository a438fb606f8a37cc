import { Avatar, Group, Text, Tooltip } from '@mantine/core';
import type { LivePresenceEvent } from '@shared/api/live';
import { initials } from '@web/lib/auth';
import { usePresence } from '@web/lib/live';

interface PresenceAvatarsProps {
  /** Which of the other tabs to show. */
  where: (where: NonNullable<LivePresenceEvent['where']>) => boolean;
  /** What the group is called, e.g. 'Also viewing this item'. */
  label: string;
  /** Field keys → titles, to say which field a member is editing. */
  fieldTitle?: (key: string) => string | undefined;
}

/** The other members whose tabs are here (one avatar per member), with the field each is editing. */
export function PresenceAvatars({ where, label, fieldTitle }: PresenceAvatarsProps) {
  const tabs = usePresence();
  const members = new Map<string, { name: string; field?: string }>();
  for (const event of tabs.values()) {
    if (!event.where || !where(event.where)) continue;
    const field = event.where.field ? (fieldTitle?.(event.where.field) ?? event.where.field) : undefined;
    const known = members.get(event.user.id);
    if (!known || (!known.field && field)) members.set(event.user.id, { name: event.user.name, field });
  }
  if (members.size === 0) return null;
  return (
    <Group gap="xs" role="group" aria-label={label} data-testid="presence-avatars" wrap="nowrap">
      <Avatar.Group spacing="sm">
        {[...members.entries()].map(([userId, { name, field }]) => {
          const title = field ? `${name}, editing ${field}` : name;
          return (
            <Tooltip key={userId} label={title} withArrow>
              <Avatar color="marquee" radius="xl" size={30} aria-label={title} role="img">
                {initials(name)}
              </Avatar>
            </Tooltip>
          );
        })}
      </Avatar.Group>
      {members.size === 1 && (
        <Text size="xs" c="dimmed" visibleFrom="sm">
          {[...members.values()].map(({ name, field }) => (field ? `${name} · ${field}` : name))}
        </Text>
      )}
    </Group>
  );
}
