import { lazy, Suspense, useState } from 'react';
import { Button, Menu } from '@mantine/core';
import {
  IconChecklist,
  IconChevronDown,
  IconGitCompare,
  IconPackage,
  IconTrash,
  IconUpload,
  IconWorldOff,
} from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Item } from '@shared/api/items';
import type { Workspace } from '@shared/api/workspaces';
import {
  approvalsPath,
  changelogPath,
  deleteItemPath,
  publishPath,
  unpublishPath,
} from '@web/lib/item-paths';

/** The release picker loads when first opened. */
const AddToReleaseDialog = lazy(() => import('@web/components/releases/add-to-release-dialog'));

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
  const { canDelete, canPublish } = item.abilities;
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
