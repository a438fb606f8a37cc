import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Alert, Box, Button, Drawer, Grid, Group, Paper, Skeleton, Stack, Tabs, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconLayoutSidebarRightExpand, IconLock } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import type { Item } from '@shared/api/items';
import type { Workspace } from '@shared/api/workspaces';
import type { Domain, SchemaType } from '@shared/schemas/types';
import { can } from '@shared/permissions/permissions';
import { AudienceMembers } from '@web/components/audiences/audience-members';
import { ItemForm } from '@web/components/item-form/item-form';
import { EmailTestSendPanel } from '@web/components/email-editor/email-test-send-panel';
import { NotFoundPage } from '@web/components/not-found-page';
import { useItem } from './api/get-item';
import { NEW_ITEM_ID } from './api/save-item';
import { ApprovalsPanel } from './components/approvals-panel';
import { CommentsPanel } from './components/comments-panel';
import { DomainDisabled } from './components/domain-unavailable';
import { HistoryPanel, type HistoryPanelProps } from './components/history-panel';
import { ItemActions } from './components/item-actions';
import { ItemHeader } from './components/item-header';
import { ItemLiveForm } from './components/item-live-form';
import { useItemLive } from './components/use-item-live';
import { ModelChangeNotice, useFormDirty } from './components/model-change-notice';
import { useUnsavedDraft } from './components/use-unsaved-draft';
import { PublishingPanel } from './components/publishing-panel';
import { formLocales, useItemFormEnvironment } from './components/use-item-form-environment';
import { useItemPreview } from './components/use-item-preview';
import { useItemSave } from './components/use-item-save';
import { itemTitle } from './item-labels';
import { itemScreenPath, schemaListPath } from '@web/lib/item-paths';
import { useItemRoute } from './use-item-route';
import { showToast } from '@web/lib/toast';

/** Only campaign screens load the campaign panel. */
const CampaignPanel = lazy(() =>
  import('@web/components/campaigns/campaign-panel').then((module) => ({ default: module.CampaignPanel })),
);

/** Only journey screens load the journey panel. */
const JourneyPanel = lazy(() =>
  import('@web/components/journeys/journey-panel').then((module) => ({ default: module.JourneyPanel })),
);

const EMAIL_SCHEMA = 'email';
const JOURNEY_SCHEMA = 'journey';
const CAMPAIGN_SCHEMA = 'campaign';
const AUDIENCE_SCHEMA = 'audience';

/** /{workspace}/{domain}/{schema}/{id}: the item form with a right drawer of publishing, approvals, comments and history. */
export default function SingleItemRoute() {
  const route = useItemRoute();
  if (route.status === 'not-found') return <NotFoundPage />;
  if (route.status === 'disabled') return <DomainDisabled />;
  const { workspace, domain, schema, id } = route;
  if (id === NEW_ITEM_ID)
    return <NewItemScreen key={`${schema.name}/new`} workspace={workspace} domain={domain} schema={schema} />;
  return (
    <ExistingItemScreen
      key={`${schema.name}/${id}`}
      workspace={workspace}
      domain={domain}
      schema={schema}
      id={id}
    />
  );
}

interface ScreenProps {
  workspace: Workspace;
  domain: Domain;
  schema: SchemaType;
}

/** id 'new': the form in edit mode; the first save creates the item and reloads it under its id. */
function NewItemScreen({ workspace, domain, schema }: ScreenProps) {
  const navigate = useNavigate();
  const environment = useItemFormEnvironment(workspace);
  const { dirty, handleDataChange } = useFormDirty();
  const { handleSave } = useItemSave(workspace.id, schema.name, NEW_ITEM_ID, undefined, (item) => {
    showToast({ color: 'teal', message: `${schema.title} created` });
    navigate(itemScreenPath(workspace.id, domain.name, schema.name, item.id), { replace: true });
  });
  const canEdit = workspace.__permissions.canEdit.includes(schema.name);
  return (
    <Box maw={980}>
      <ItemHeader workspace={workspace} domain={domain} schema={schema} title={`New ${schema.title}`} />
      {!canEdit ? (
        <Alert color="orange" variant="light" icon={<IconLock size={18} />} role="alert">
          You do not have permission to create {schema.pluralTitle}.
        </Alert>
      ) : (
        <Stack gap="md">
          <ModelChangeNotice version={environment.model.version} schema={schema} dirty={dirty} />
          <ItemForm
            schema={schema}
            value={{}}
            isNew
            mode="edit"
            canEdit={canEdit}
            locales={formLocales(workspace, schema.name)}
            onDataChange={handleDataChange}
            onSave={handleSave}
            onCancel={() => navigate(schemaListPath(workspace.id, domain.name, schema.name))}
            {...environment}
          />
        </Stack>
      )}
    </Box>
  );
}

function ItemSidePanel({ workspace, domain, item, locale }: HistoryPanelProps) {
  return (
    <Tabs defaultValue="publishing" keepMounted={false} data-testid="item-drawer">
      <Tabs.List grow mb="md" style={{ flexWrap: 'nowrap' }}>
        <Tabs.Tab value="publishing" px="xs">
          Publish
        </Tabs.Tab>
        <Tabs.Tab value="approvals" px="xs">
          Approvals
        </Tabs.Tab>
        <Tabs.Tab value="comments" px="xs">
          Comments
        </Tabs.Tab>
        <Tabs.Tab value="history" px="xs">
          History
        </Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="publishing">
        <PublishingPanel workspace={workspace} domain={domain} item={item} />
      </Tabs.Panel>
      <Tabs.Panel value="approvals">
        <ApprovalsPanel workspace={workspace} item={item} />
      </Tabs.Panel>
      <Tabs.Panel value="comments">
        <CommentsPanel workspace={workspace} item={item} />
      </Tabs.Panel>
      <Tabs.Panel value="history">
        <HistoryPanel workspace={workspace} domain={domain} item={item} locale={locale} />
      </Tabs.Panel>
    </Tabs>
  );
}

/**
 * What some schemas add below the form: the email's test send, the campaign's sending and results, the
 * journey's start and stop, the audience's members.
 */
function SchemaPanel({ workspace, item }: { workspace: Workspace; item: Item }) {
  if (item.schema === EMAIL_SCHEMA)
    return (
      <EmailTestSendPanel
        workspaceId={workspace.id}
        itemId={item.id}
        version={item.version}
        testAddresses={item.data.testAddresses}
        canSend={item.abilities.canEdit}
      />
    );
  if (item.schema === CAMPAIGN_SCHEMA)
    return (
      <Suspense fallback={<Skeleton h={140} radius="md" />}>
        <CampaignPanel
          workspaceId={workspace.id}
          campaignId={item.id}
          version={item.version}
          approvals={item.approvedBy.length}
          sendAt={item.data.sendAt}
          sendAtZone={item.data.sendAt_tz}
        />
      </Suspense>
    );
  if (item.schema === JOURNEY_SCHEMA)
    return (
      <Suspense fallback={<Skeleton h={80} radius="md" />}>
        <JourneyPanel
          workspaceId={workspace.id}
          journeyId={item.id}
          version={item.version}
          definition={item.data.definition}
          canRun={can(workspace.__permissions, 'publish', JOURNEY_SCHEMA)}
        />
      </Suspense>
    );
  if (item.schema === AUDIENCE_SCHEMA) return <AudienceMembers ws={workspace.id} audienceId={item.id} />;
  return null;
}

/** On narrow screens, the side panel opens from the right. */
function ActivityDrawer({
  opened,
  onClose,
  item,
  children,
}: {
  opened: boolean;
  onClose: () => void;
  item: Item;
  children: ReactNode;
}) {
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      title={<Text fw={600}>{itemTitle(item.data)}</Text>}
    >
      {children}
    </Drawer>
  );
}

/**
 * The form and what goes with it, beside the item's activity on wide screens; under it where the form
 * needs the whole width (the email editor).
 */
function ItemLayout({
  isWide,
  isFullWidth,
  main,
  side,
  preview,
}: {
  isWide: boolean;
  isFullWidth: boolean;
  main: ReactNode;
  side: ReactNode;
  /** The website beside the form, in place of the activity (which moves to its drawer). */
  preview?: ReactNode;
}) {
  if (preview)
    return (
      <Grid gap="lg" align="flex-start">
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack gap="md">{main}</Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7 }} style={isWide ? { position: 'sticky', top: 76 } : undefined}>
          {preview}
        </Grid.Col>
      </Grid>
    );
  return (
    <Grid gap="lg" align="flex-start">
      <Grid.Col span={isFullWidth ? 12 : { base: 12, md: 7, xl: 8 }}>
        <Stack gap="md">{main}</Stack>
      </Grid.Col>
      {isWide && (
        <Grid.Col span={isFullWidth ? 12 : { md: 5, xl: 4 }}>
          <Paper
            withBorder
            radius="md"
            p="md"
            style={isFullWidth ? undefined : { position: 'sticky', top: 76 }}
          >
            {side}
          </Paper>
        </Grid.Col>
      )}
    </Grid>
  );
}

function ExistingItemScreen({ workspace, domain, schema, id }: ScreenProps & { id: string }) {
  const item = useItem(workspace.id, schema.name, id);
  const isWide = useMediaQuery('(min-width: 62em)', true);
  const [isDrawerOpen, setDrawerOpen] = useState(false);
  const [formKey, setFormKey] = useState(0);
  const [locale, setLocale] = useState<string>();
  const live = useItemLive(workspace.id, schema.name, id, item);
  const draft = useUnsavedDraft(workspace.id, schema.name, id, live, item.data?.version);
  const { handleSave, conflict, clearConflict } = useItemSave(
    workspace.id,
    schema.name,
    id,
    draft.baseVersion,
    (saved) => showToast({ color: 'teal', message: `Saved as version ${saved.version}` }),
  );

  const preview = useItemPreview(workspace, schema, live.deleted !== null);
  const isSideInDrawer = !isWide || preview.isOpen;

  // The email editor and the journey canvas need the whole width; the activity panel goes below them.
  const isFullWidth = schema.name === EMAIL_SCHEMA || schema.name === JOURNEY_SCHEMA;
  // A campaign's sending, preview and results need the page's width: below the form and its activity.
  const isPanelBelow = schema.name === CAMPAIGN_SCHEMA;

  // The route's guard loaded the item; without it (deleted meanwhile) there is nothing to show.
  if (!item.data) return null;
  const current = item.data;

  const handleReload = async () => {
    clearConflict();
    live.reset();
    await item.refetch();
    setFormKey((k) => k + 1);
  };

  // A deleted item keeps its last version on screen; nothing that acts on it is offered.
  const isDeleted = live.deleted !== null;
  const side = isDeleted ? (
    <Text size="sm" c="dimmed">
      This item was deleted.
    </Text>
  ) : (
    <ItemSidePanel workspace={workspace} domain={domain.name} item={current} locale={locale} />
  );

  return (
    <>
      <ItemHeader
        workspace={workspace}
        domain={domain}
        schema={schema}
        item={current}
        actions={
          <>
            {preview.toggle}
            {isSideInDrawer && (
              <Button
                variant="default"
                leftSection={<IconLayoutSidebarRightExpand size={16} />}
                onClick={() => setDrawerOpen(true)}
              >
                Activity
              </Button>
            )}
            {!isDeleted && <ItemActions workspace={workspace} domain={domain.name} item={current} />}
          </>
        }
      />
      <ItemLayout
        isWide={isWide}
        isFullWidth={isFullWidth}
        side={side}
        preview={preview.pane(current, locale)}
        main={
          <Stack gap="md" ref={preview.formRef}>
            <ItemLiveForm
              workspace={workspace}
              schema={schema}
              item={current}
              live={live}
              draft={draft}
              locale={locale}
              onLocaleChange={setLocale}
              conflict={conflict}
              formKey={formKey}
              onSave={(data) => handleSave(data).then(preview.feed.saved)}
              onReload={() => void handleReload()}
              onDataChange={preview.feed.push}
            />
            {!isDeleted && !isPanelBelow && <SchemaPanel workspace={workspace} item={current} />}
          </Stack>
        }
      />
      {!isDeleted && isPanelBelow && (
        <Box mt="lg">
          <SchemaPanel workspace={workspace} item={current} />
        </Box>
      )}
      {isSideInDrawer && (
        <ActivityDrawer opened={isDrawerOpen} onClose={() => setDrawerOpen(false)} item={current}>
          {side}
        </ActivityDrawer>
      )}
      <Group h={24} />
    </>
  );
}
