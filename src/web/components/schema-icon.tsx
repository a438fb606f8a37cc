import {
  IconActivity,
  IconArticle,
  IconCalendarEvent,
  IconChecklist,
  IconFileText,
  IconFolder,
  IconMail,
  IconSend,
  IconPhoto,
  IconPlugConnected,
  IconRoute,
  IconSpeakerphone,
  IconTestPipe,
  IconUserCircle,
  IconUsersGroup,
  IconSettings,
  IconPencil,
  type Icon,
} from '@tabler/icons-react';

const ICONS: Record<string, Icon> = {
  activity: IconActivity,
  article: IconArticle,
  'calendar-event': IconCalendarEvent,
  checklist: IconChecklist,
  'file-text': IconFileText,
  mail: IconMail,
  send: IconSend,
  photo: IconPhoto,
  'plug-connected': IconPlugConnected,
  route: IconRoute,
  'test-pipe': IconTestPipe,
  'user-circle': IconUserCircle,
  'users-group': IconUsersGroup,
};

const DOMAIN_ICONS: Record<string, Icon> = {
  marketing: IconSpeakerphone,
  assets: IconPhoto,
  blogging: IconPencil,
  admin: IconSettings,
};

/** The icon names a schema may choose. */
export const SCHEMA_ICON_NAMES = Object.keys(ICONS);

/** The Tabler icon a schema's `icon` name stands for. */
export function SchemaIcon({ name, size = 18 }: { name: string; size?: number }) {
  const Component = ICONS[name] ?? IconFileText;
  return <Component size={size} stroke={1.6} />;
}

export function DomainIcon({ name, size = 18 }: { name: string; size?: number }) {
  const Component = DOMAIN_ICONS[name] ?? IconFolder;
  return <Component size={size} stroke={1.6} />;
}
