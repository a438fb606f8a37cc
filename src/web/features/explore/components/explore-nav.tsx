import { useCallback, useEffect, useRef, useState } from 'react';
import { Box, NavLink, ScrollArea, Stack, Text, UnstyledButton } from '@mantine/core';
import { useElementSize, useWindowEvent } from '@mantine/hooks';
import {
  IconAlertTriangle,
  IconCalendarTime,
  IconChartBar,
  IconChevronDown,
  IconCircleCheck,
  IconClockHour4,
  IconInbox,
  IconPackage,
  IconUserEdit,
  IconUserCheck,
  type Icon,
} from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import type { Workspace } from '@shared/api/workspaces';
import { explorePath } from '@web/app/guards';
import { DomainIcon, SchemaIcon } from '@web/components/schema-icon';
import { useWorkspaceModel } from '@web/lib/content-model';
import { savedViews } from '@web/lib/saved-views';
import { visibleDomains } from '@web/lib/workspace-content';

const VIEW_ICONS: Record<string, Icon> = {
  all: IconInbox,
  'last-updated-by-me': IconUserEdit,
  'need-my-approval': IconUserCheck,
  scheduled: IconCalendarTime,
  'published-in': IconCircleCheck,
  'outdated-in': IconAlertTriangle,
  'aging-in': IconClockHour4,
};

function SectionLabel({ children }: { children: string }) {
  return (
    <Text
      size="xs"
      fw={600}
      c="dimmed"
      tt="uppercase"
      px="sm"
      mt="md"
      mb={4}
      style={{ letterSpacing: '0.04em' }}
    >
      {children}
    </Text>
  );
}

/** Whether the navigation's scroll area has more below what is shown; follows scrolling and resizing. */
function useMoreBelow() {
  const viewportRef = useRef<HTMLDivElement>(null);
  const { ref: contentRef, height } = useElementSize();
  const [isMoreBelow, setMoreBelow] = useState(false);
  const measure = useCallback(() => {
    const viewport = viewportRef.current;
    if (viewport) setMoreBelow(viewport.scrollHeight - viewport.clientHeight - viewport.scrollTop > 8);
  }, []);
  useEffect(measure, [measure, height]);
  useWindowEvent('resize', measure);
  const scrollDown = () =>
    viewportRef.current?.scrollBy({ top: viewportRef.current.clientHeight * 0.75, behavior: 'smooth' });
  return { viewportRef, contentRef, isMoreBelow, measure, scrollDown };
}

function ViewLink({
  to,
  label,
  viewId,
  iconSize,
  pathname,
}: {
  to: string;
  label: string;
  viewId: string;
  iconSize: number;
  pathname: string;
}) {
  const ViewIcon = VIEW_ICONS[viewId];
  return (
    <NavLink
      component={Link}
      to={to}
      label={label}
      active={pathname === to}
      leftSection={<ViewIcon size={iconSize} stroke={1.6} />}
    />
  );
}

/** The saved views, those about a stage grouped under the stage's name. */
function SavedViewLinks({ workspace, pathname }: { workspace: Workspace; pathname: string }) {
  const views = savedViews(workspace.basics.stages, workspace.__permissions);
  const plain = views.filter((v) => !v.stage);
  const stages = [...new Set(views.filter((v) => v.stage).map((v) => v.stage!))];
  return (
    <>
      {plain.map((view) => {
        const to = explorePath(workspace.id, view.viewId);
        return (
          <ViewLink
            key={to}
            to={to}
            label={view.label}
            viewId={view.viewId}
            iconSize={17}
            pathname={pathname}
          />
        );
      })}
      {stages.map((stage) => (
        // A group that opens and closes is a button with aria-expanded; NavLink's default <a> may not carry it.
        <NavLink
          key={stage}
          component="button"
          label={stage}
          leftSection={<IconCircleCheck size={17} stroke={1.6} />}
          defaultOpened={pathname.includes('-in/')}
          childrenOffset={28}
        >
          {views
            .filter((v) => v.stage === stage)
            .map((view) => {
              const to = explorePath(workspace.id, view.viewId, view.viewParam);
              return (
                <ViewLink
                  key={to}
                  to={to}
                  label={view.label.replace(` in ${stage}`, '')}
                  viewId={view.viewId}
                  iconSize={15}
                  pathname={pathname}
                />
              );
            })}
        </NavLink>
      ))}
    </>
  );
}

/** The enabled domains, each opened on its schemas. */
function DomainLinks({ workspace, pathname }: { workspace: Workspace; pathname: string }) {
  const domains = visibleDomains(workspace, useWorkspaceModel(workspace));
  return (
    <>
      {domains.length === 0 && (
        <Text size="sm" c="dimmed" px="sm">
          No domains enabled.
        </Text>
      )}
      {domains.map((domain) => (
        <NavLink
          key={domain.name}
          component="button"
          label={domain.title}
          leftSection={<DomainIcon name={domain.name} size={17} />}
          defaultOpened
          childrenOffset={28}
        >
          {domain.schemas.map((schema) => {
            const to = `/${workspace.id}/${domain.name}/${schema.name}`;
            return (
              <NavLink
                key={schema.name}
                component={Link}
                to={to}
                label={schema.pluralTitle}
                active={pathname === to}
                leftSection={<SchemaIcon name={schema.icon} size={15} />}
              />
            );
          })}
        </NavLink>
      ))}
    </>
  );
}

/** Left navigation of a workspace: saved views, then domains and their schemas (spec §2). */
export function ExploreNav({ workspace }: { workspace: Workspace }) {
  const { pathname } = useLocation();
  const more = useMoreBelow();

  return (
    <Box pos="relative" style={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' }}>
      <ScrollArea
        type="auto"
        style={{ flex: 1 }}
        viewportRef={more.viewportRef}
        onScrollPositionChange={more.measure}
        aria-label="Workspace navigation"
      >
        <Stack gap={2} component="nav" ref={more.contentRef}>
          <NavLink
            component={Link}
            to={`/${workspace.id}/_dashboard`}
            label="Dashboard"
            active={pathname === `/${workspace.id}/_dashboard`}
            leftSection={<IconChartBar size={17} stroke={1.6} />}
          />
          <SectionLabel>Saved views</SectionLabel>
          <SavedViewLinks workspace={workspace} pathname={pathname} />
          <NavLink
            component={Link}
            to={`/${workspace.id}/_releases`}
            label="Releases"
            active={pathname.startsWith(`/${workspace.id}/_releases`)}
            leftSection={<IconPackage size={17} stroke={1.6} />}
          />

          <SectionLabel>Content</SectionLabel>
          <DomainLinks workspace={workspace} pathname={pathname} />
        </Stack>
      </ScrollArea>
      {more.isMoreBelow && (
        <UnstyledButton
          onClick={more.scrollDown}
          data-testid="nav-more-below"
          style={{
            position: 'absolute',
            insetInline: 0,
            bottom: 0,
            paddingTop: 24,
            paddingBottom: 4,
            textAlign: 'center',
            background: 'linear-gradient(to bottom, transparent, var(--mantine-color-body) 60%)',
          }}
        >
          <Text
            size="xs"
            fw={600}
            c="marquee.7"
            span
            style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}
          >
            More below <IconChevronDown size={14} />
          </Text>
        </UnstyledButton>
      )}
    </Box>
  );
}
