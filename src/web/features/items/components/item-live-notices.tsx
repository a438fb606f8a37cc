import { useState } from 'react';
import { Alert, Button, Group, Modal, Text } from '@mantine/core';
import {
  IconEye,
  IconGitCompare,
  IconLock,
  IconRefresh,
  IconTrash,
  IconUserExclamation,
} from '@tabler/icons-react';
import { LIVE_MESSAGES, type ItemLock } from '@shared/api/live';
import type { Item } from '@shared/api/items';
import type { SchemaType } from '@shared/schemas/types';
import { CompareView } from '@web/components/item-form/compare-view';
import type { FormLocales } from '@web/components/item-form/item-locales';
import { orderedFields } from '@web/components/item-form/item-form';
import { apiRequest } from '@web/lib/api-client';
import { formatDateTime } from '@web/lib/dates';
import { Item as ItemAnswer } from '@shared/api/items';
import { PresenceAvatars } from '@web/components/presence-avatars';
import { itemPath } from '../api/keys';
import type { ChangedElsewhere, ItemLive } from './use-item-live';

/** The workspace's locales, and the one the item form shows: comparisons open in it. */
interface LocaleOptions {
  locales?: FormLocales;
  locale?: string;
}

/**
 * The item changed while this tab edits it: the user's edits stay, and the version they are based on
 * too (a save still answers 409 rather than overwrite); Compare shows what the other member changed.
 */
function ChangedElsewhereNotice({
  ws,
  schema,
  item,
  change,
  onReload,
  locales,
  locale,
}: {
  ws: string;
  schema: SchemaType;
  item: Item;
  change: ChangedElsewhere;
  onReload: () => void;
} & LocaleOptions) {
  const [latest, setLatest] = useState<Item | null>(null);
  const [error, setError] = useState<string | null>(null);
  const compare = () => {
    setError(null);
    apiRequest(itemPath(ws, schema.name, item.id), { schema: ItemAnswer })
      .then(setLatest)
      .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  };
  return (
    <Alert
      color="blue"
      variant="light"
      icon={<IconUserExclamation size={18} />}
      title={LIVE_MESSAGES.changedBy(change.name, formatDateTime(change.at))}
      role="status"
      data-testid="changed-elsewhere"
    >
      <Group justify="space-between" gap="sm">
        <Text size="sm">Your unsaved changes are kept. Saving them now would be refused as out of date.</Text>
        <Group gap="xs">
          <Button size="xs" variant="default" leftSection={<IconGitCompare size={14} />} onClick={compare}>
            Compare
          </Button>
          <Button size="xs" leftSection={<IconRefresh size={14} />} onClick={onReload}>
            Reload their version
          </Button>
        </Group>
      </Group>
      {error && (
        <Text size="sm" c="red.8" mt="xs">
          {error}
        </Text>
      )}
      <Modal
        opened={latest !== null}
        onClose={() => setLatest(null)}
        size="xl"
        title={`What ${change.name} changed`}
      >
        {latest && (
          <CompareView
            schema={schema}
            fields={orderedFields(schema)}
            before={{ label: `Version ${item.version} (your edits start from it)`, data: item.data }}
            after={{ label: `Version ${latest.version}`, data: latest.data }}
            locales={locales}
            initialLocale={locale}
          />
        )}
      </Modal>
    </Alert>
  );
}

/** Another member's tab holds the edit lock: editing here waits, or takes the lock over. */
function BeingEditedNotice({
  lock,
  onTakeOver,
  onViewOnly,
}: {
  lock: ItemLock;
  /** Without it (view only, or no right to edit) the notice only says who edits. */
  onTakeOver?: () => void;
  onViewOnly?: () => void;
}) {
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<IconLock size={18} />}
      title={LIVE_MESSAGES.beingEdited(lock.name)}
      role="status"
      data-testid="being-edited"
    >
      <Group justify="space-between" gap="sm">
        <Text size="sm">
          {onTakeOver
            ? `Taking over tells ${lock.name}; their unsaved changes are kept in their browser.`
            : 'You are viewing the last saved version.'}
        </Text>
        {onTakeOver && (
          <Group gap="xs">
            {onViewOnly && (
              <Button size="xs" variant="default" leftSection={<IconEye size={14} />} onClick={onViewOnly}>
                View only
              </Button>
            )}
            <Button size="xs" color="orange" onClick={onTakeOver}>
              Take over
            </Button>
          </Group>
        )}
      </Group>
    </Alert>
  );
}

/** This tab's lock was taken over: the edits made here stay in the form, and are kept in the browser. */
function TakenOverNotice({ name, onDismiss }: { name: string; onDismiss: () => void }) {
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconLock size={18} />}
      title={`${name} took over editing`}
      role="alert"
      withCloseButton
      closeButtonLabel="Dismiss"
      onClose={onDismiss}
      data-testid="taken-over"
    >
      <Text size="sm">
        Your unsaved changes stay in the form and are kept in this browser: opening the item again offers to
        restore them. Saving now is refused once {name} saves.
      </Text>
    </Alert>
  );
}

/** Another member deleted the item: what is shown stays, but nothing can be done with it any more. */
function DeletedNotice({ change, editing }: { change: ChangedElsewhere; editing: boolean }) {
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconTrash size={18} />}
      title={LIVE_MESSAGES.deletedBy(change.name, formatDateTime(change.at))}
      role="alert"
      data-testid="item-deleted"
    >
      <Text size="sm">
        {editing
          ? 'Your unsaved changes stay in the form, but saving them cannot succeed: copy what you need.'
          : 'This is its last version; it can no longer be edited, published or commented on.'}
      </Text>
    </Alert>
  );
}

/** Above the item form: who else is here, who holds the edit lock, and writes made elsewhere while editing. */
export function ItemLiveNotices({
  ws,
  schema,
  item,
  live,
  onReload,
  locales,
  locale,
}: {
  ws: string;
  schema: SchemaType;
  item: Item;
  live: ItemLive;
  onReload: () => void;
} & LocaleOptions) {
  const { lock } = live;
  const offerTakeOver = item.abilities.canEdit && !live.isViewOnly;
  if (live.deleted) return <DeletedNotice change={live.deleted} editing={live.editing} />;
  return (
    <>
      <PresenceAvatars
        label="Also on this item"
        where={(where) => where.item?.schema === schema.name && where.item.id === item.id}
        fieldTitle={(key) => schema.fields.find((field) => field.key === key)?.label}
      />
      {lock.takenOverBy && <TakenOverNotice name={lock.takenOverBy} onDismiss={lock.dismissTakenOver} />}
      {lock.heldByOther && (
        <BeingEditedNotice
          lock={lock.heldByOther}
          onTakeOver={offerTakeOver ? live.takeOver : undefined}
          onViewOnly={live.viewOnly}
        />
      )}
      {live.changedElsewhere && live.editing && (
        <ChangedElsewhereNotice
          ws={ws}
          schema={schema}
          item={item}
          change={live.changedElsewhere}
          onReload={onReload}
          locales={locales}
          locale={locale}
        />
      )}
    </>
  );
}
