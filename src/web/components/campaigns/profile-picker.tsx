import { useState } from 'react';
import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useProfileSearch } from './api/search-profiles';

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** A profile as a person picks it: its email or name, and its id when that says something else. */
function profileLabel(profile: { id: string; attributes: Record<string, unknown> }) {
  const { attributes } = profile;
  const name = [text(attributes.firstName), text(attributes.lastName)].filter(Boolean).join(' ');
  const email = text(attributes.email);
  const shown = [name, email && (name ? `<${email}>` : email)].filter(Boolean).join(' ');
  return shown && shown !== profile.id ? `${shown} · ${profile.id}` : profile.id;
}

/** Picks a stored customer profile by id, email or name (the customers screens' search). */
export function ProfilePicker({
  workspaceId,
  value,
  onChange,
}: {
  workspaceId: string;
  value: string | null;
  onChange: (profileId: string | null) => void;
}) {
  const [search, setSearch] = useState('');
  // The chosen profile keeps its label while another search's page is shown.
  const [chosenLabel, setChosenLabel] = useState<string | null>(null);
  // Once a profile is picked the input shows its label: that is no search.
  const [debounced] = useDebouncedValue(search === chosenLabel ? '' : search, 250);
  const profiles = useProfileSearch(workspaceId, debounced);
  const data = (profiles.data?.profiles ?? []).map((profile) => ({
    value: profile.id,
    label: profileLabel(profile),
  }));
  if (value && chosenLabel && !data.some((option) => option.value === value))
    data.unshift({ value, label: chosenLabel });

  return (
    <Select
      label="Preview as"
      placeholder="Search profiles by id, email or name"
      searchable
      clearable
      filter={({ options }) => options}
      nothingFoundMessage={profiles.isFetching ? 'Searching…' : 'No profile found'}
      data={data}
      value={value}
      searchValue={search}
      onSearchChange={setSearch}
      onChange={(next, option) => {
        setChosenLabel(option?.label ?? null);
        onChange(next);
      }}
      maw={420}
      w="100%"
    />
  );
}
