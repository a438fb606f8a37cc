import { lazy, Suspense, useState } from 'react';
import { Button, Menu } from '@mantine/core';
import {
  IconChecklist,
  IconChevronDown,
  IconCopy,
  IconGitCompare,
  IconPackage,
  IconTrash,
  IconUpload,
  IconWorldOff,
} from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import type { Item } from '@shared/api/items';
import type { Workspace } from '@shared/api/workspaces';
import { errorMessage } from '@web/lib/api-client';
import {
  approvalsPath,
  changelogPath,
  deleteItemPath,
  itemScreenPath,
  publishPath,
  unpublishPath,
} from '@web/lib/item-paths';
import { showToast } from '@web/lib/toast';
import { useDuplicateItem } from '../api/duplicate-item';
import { itemTitle } from '../item-labels';

/** The release picker loads when first opened. */
const AddToReleaseDialog = lazy(() => import('@web/components/releases/add-to-release-dialog'));

/** Duplicates the item and opens the copy, a new draft, saying what it is called. */
function useDuplicate(ws: string, domain: string, item: Item) {
  const duplicate = useDuplicateItem();
  const navigate = useNavigate();
  return () =>
    duplicate.mutate(
      { ws, schema: item.schema, id: item.id },
      {
        onSuccess: (copy) => {
          showToast({ color: 'teal', message: `Duplicated as “${itemTitle(copy.data)}”` });
          navigate(itemScreenPath(ws, domain, copy.schema, copy.id));
        },
        onError: (error) => showToast({ color: 'red', message: errorMessage(error) }),
      },
    );
}

/** The item screen's Actions menu: only what the member may do with this item. */
export function ItemActions({
  workspace,
  domain,
  item,
}: {
  workspace: Workspace;
  domain: string;
  item: Item;
}) {
  const ws = workspace.id;
  const { canDelete, canEdit, canPublish } = item.abilities;
  const handleDuplicate = useDuplicate(ws, domain, item);
  const published = Object.values(item.publishStatus).some((s) => s !== 'NOT_PUBLISHED');
  const [isAddingToRelease, setAddingToRelease] = useState(false);
  return (
    <>
      {isAddingToRelease && (
        <Suspense fallback={null}>
          <AddToReleaseDialog
            workspace={workspace}
            items={[{ schema: item.schema, itemId: item.id, version: item.version }]}
            onClose={() => setAddingToRelease(false)}
          />
        </Suspense>
      )}
      <Menu position="bottom-end" shadow="md" width={220}>
        <Menu.Target>
          <Button variant="default" rightSection={<IconChevronDown size={14} />}>
            Actions
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {canPublish && (
            <Menu.Item
              component={Link}
              to={publishPath(ws, domain, item.schema, item.id)}
              leftSection={<IconUpload size={16} />}
            >
              Publish…
            </Menu.Item>
          )}
          {canPublish && published && (
            <Menu.Item
              component={Link}
              to={unpublishPath(ws, domain, item.schema, item.id)}
              leftSection={<IconWorldOff size={16} />}
            >
              Unpublish…
            </Menu.Item>
          )}
          {canPublish && (
            <Menu.Item leftSection={<IconPackage size={16} />} onClick={() => setAddingToRelease(true)}>
              Add to release…
            </Menu.Item>
          )}
          {canEdit && (
            <Menu.Item leftSection={<IconCopy size={16} />} onClick={handleDuplicate}>
              Duplicate
            </Menu.Item>
          )}
          <Menu.Item
            component={Link}
            to={changelogPath(ws, domain, item.schema, item.id)}
            leftSection={<IconGitCompare size={16} />}
          >
            Change log
          </Menu.Item>
          <Menu.Item
            component={Link}
            to={approvalsPath(ws, domain, item.schema, item.id)}
            leftSection={<IconChecklist size={16} />}
          >
            Approvals
          </Menu.Item>
          {canDelete && (
            <>
              <Menu.Divider role="separator" />
              <Menu.Item
                component={Link}
                to={deleteItemPath(ws, domain, item.schema, item.id)}
                color="red.9"
                leftSection={<IconTrash size={16} />}
              >
                Delete…
              </Menu.Item>
            </>
          )}
        </Menu.Dropdown>
      </Menu>
    </>
  );
}
