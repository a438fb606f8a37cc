import { PresenceAvatars } from '@web/components/presence-avatars';
import { useTellPresence } from '@web/lib/live';

/** Tells the workspace this tab shows the schema's list, and shows who else does. */
export default function ListPresence({ ws, schema }: { ws: string; schema: string }) {
  useTellPresence(ws, { list: schema });
  return <PresenceAvatars label="Also on this list" where={(where) => where.list === schema} />;
}
