import { Alert, Group, Loader, Select, Stack, type ComboboxData } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { ItemForm } from '@web/components/item-form/item-form';
import { errorMessage } from '@web/lib/api-client';
import { formatDateTime } from '@web/lib/dates';
import { useHistory, useVersion } from './api/get-history';
import { useMembers } from '@web/lib/members';
import { ItemSubScreen, type ItemScreenContext } from './components/item-sub-screen';
import { formLocales, useItemFormEnvironment } from './components/use-item-form-environment';
import { HistoryLocaleFilter, useHistoryLocaleFilter } from './components/history-locale-filter';
import { VersionTable } from './components/version-table';
import { userLabel } from './item-labels';

/** /{workspace}/changelog/{domain}/{schema}/{id}: every version, and any two compared side by side. */
export default function ChangelogRoute() {
  return (
    <ItemSubScreen section="Change log" maxWidth={1200}>
      {(context) => <Changelog {...context} />}
    </ItemSubScreen>
  );
}

/** The two versions to compare: "Compare" the older "with" the newer. */
function VersionPickers({
  options,
  from,
  to,
  onChoose,
}: {
  options: ComboboxData;
  from: number;
  to: number;
  onChoose: (key: 'from' | 'to', value: string | null) => void;
}) {
  return (
    <Group gap="md" align="flex-end">
      <Select
        label="Compare"
        data={options}
        value={String(from)}
        onChange={(v) => onChoose('from', v)}
        allowDeselect={false}
        w={180}
      />
      <Select
        label="with"
        data={options}
        value={String(to)}
        onChange={(v) => onChoose('to', v)}
        allowDeselect={false}
        w={180}
      />
    </Group>
  );
}

function Changelog({ workspace, schema, item }: ItemScreenContext) {
  const [params, setParams] = useSearchParams();
  const history = useHistory(workspace.id, schema.name, item.id);
  const members = useMembers(workspace.id);
  const environment = useItemFormEnvironment(workspace);
  const versions = history.data?.versions ?? [];
  const { shown, filter } = useHistoryLocaleFilter(workspace.basics.locales, versions);
  const newest = versions[0]?.thisVersion ?? item.version;
  const to = Number(params.get('to')) || newest;
  const from = Number(params.get('from')) || Math.max(1, to - 1);
  const left = useVersion(workspace.id, schema.name, item.id, from);
  const right = useVersion(workspace.id, schema.name, item.id, to);

  if (history.isPending) return <Loader size="sm" />;
  if (history.isError) {
    return (
      <Alert color="red" variant="light" role="alert">
        {errorMessage(history.error)}
      </Alert>
    );
  }

  const options = versions.map((v) => ({ value: String(v.thisVersion), label: `Version ${v.thisVersion}` }));
  const chooseLocale = (tag: string) => {
    const next = new URLSearchParams(params);
    next.set('locale', tag);
    setParams(next, { replace: true });
  };
  const choose = (key: 'from' | 'to', value: string | null) => {
    if (!value) return;
    const next = new URLSearchParams(params);
    next.set('from', String(key === 'from' ? value : from));
    next.set('to', String(key === 'to' ? value : to));
    setParams(next, { replace: true });
  };
  const label = (num: number) => {
    const entry = versions.find((v) => v.thisVersion === num);
    return entry
      ? `Version ${num} · ${userLabel(entry.by, entry.byName, members.data?.members)} · ${formatDateTime(entry.at)}`
      : `Version ${num}`;
  };

  return (
    <Stack gap="lg">
      {filter && <HistoryLocaleFilter {...filter} />}
      <VersionTable
        workspaceId={workspace.id}
        item={item}
        versions={shown}
        members={members.data?.members}
        compared={[from, to]}
      />

      {versions.length < 2 ? (
        <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} />}>
          Only one version so far. Save changes to compare versions.
        </Alert>
      ) : (
        <VersionPickers options={options} from={from} to={to} onChoose={choose} />
      )}

      {left.isPending || right.isPending ? (
        <Loader size="sm" />
      ) : left.isError || right.isError ? (
        <Alert color="red" variant="light" role="alert">
          {errorMessage(left.error ?? right.error)}
        </Alert>
      ) : (
        <ItemForm
          key={`${from}-${to}`}
          schema={schema}
          value={right.data.data}
          mode={versions.length < 2 ? 'view' : 'compare'}
          canEdit={false}
          compareWith={{ label: label(from), data: left.data.data }}
          valueLabel={label(to)}
          locales={formLocales(workspace, schema.name)}
          initialLocale={params.get('locale') ?? undefined}
          onLocaleChange={chooseLocale}
          onSave={async () => undefined}
          {...environment}
        />
      )}
    </Stack>
  );
}
