import { useState } from 'react';
import {
  Badge,
  CloseButton,
  Combobox,
  Group,
  Loader,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
  useCombobox,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { FACEBOOK_SEARCH_TYPES } from '@shared/api/services';
import { useParams } from 'react-router';
import { SocialInterestsDisplay } from '../fields/read-only-displays';
import type { FieldProps } from '../fields/types';
import { errorMessage } from '@web/lib/api-client';
import { useInterestSearch, type InterestHit, type InterestProvider } from './services-api';

type SearchType = (typeof FACEBOOK_SEARCH_TYPES)[number];

const SEARCH_TYPE_LABELS: Record<SearchType, string> = {
  adinterest: 'Interests',
  adeducationschool: 'Schools',
  adeducationmajor: 'Majors',
  adworkemployer: 'Employers',
  adworkposition: 'Job titles',
  adgeolocation: 'Locations',
  adlocale: 'Languages',
};

const asInterests = (value: unknown): InterestHit[] =>
  Array.isArray(value)
    ? value.filter((v): v is InterestHit => !!v && typeof v === 'object' && 'id' in v && 'name' in v)
    : [];

/** Type to search the provider (debounced, from two characters); choosing a hit hands it on and clears the box. */
function InterestSearch({
  inputId,
  provider,
  searchType,
  onPick,
}: {
  inputId: string;
  provider: InterestProvider;
  searchType: SearchType;
  onPick: (hit: InterestHit) => void;
}) {
  const { workspace = '' } = useParams();
  const [term, setTerm] = useState('');
  const [debounced] = useDebouncedValue(term.trim(), 300);
  const combobox = useCombobox();
  const search = useInterestSearch(workspace, provider, searchType, debounced);
  return (
    <Combobox
      store={combobox}
      onOptionSubmit={(id) => {
        const hit = search.data?.find((h) => h.id === id);
        if (!hit) return;
        onPick(hit);
        setTerm('');
        combobox.closeDropdown();
      }}
    >
      <Combobox.Target>
        <TextInput
          id={inputId}
          placeholder="Search interests"
          value={term}
          onChange={(event) => {
            setTerm(event.currentTarget.value);
            combobox.openDropdown();
          }}
          onFocus={() => combobox.openDropdown()}
          onBlur={() => combobox.closeDropdown()}
          rightSection={search.isFetching ? <Loader size="xs" /> : null}
          maw={420}
        />
      </Combobox.Target>
      <Combobox.Dropdown hidden={debounced.length < 2}>
        <Combobox.Options>
          {search.isError && <Combobox.Empty>{errorMessage(search.error)}</Combobox.Empty>}
          {search.data?.length === 0 && <Combobox.Empty>Nothing found</Combobox.Empty>}
          {search.data?.map((hit) => (
            <Combobox.Option value={hit.id} key={hit.id}>
              {hit.name}
              {hit.type && (
                <Text span size="xs" c="dimmed">
                  {' '}
                  · {hit.type}
                </Text>
              )}
            </Combobox.Option>
          ))}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}

/** The chosen interests as chips (name, id and, for X, type), each with its remove button. */
function InterestChips({ chosen, onRemove }: { chosen: InterestHit[]; onRemove: (id: string) => void }) {
  if (chosen.length === 0)
    return (
      <Text size="sm" c="dimmed">
        None Selected
      </Text>
    );
  return (
    <Group gap={6}>
      {chosen.map((interest) => (
        <Badge
          key={String(interest.id)}
          variant="light"
          tt="none"
          data-testid="interest-chip"
          rightSection={
            <CloseButton
              size="xs"
              aria-label={`Remove ${interest.name}`}
              onClick={() => onRemove(String(interest.id))}
            />
          }
        >
          {interest.name} · {String(interest.id)}
          {interest.type && ` · ${interest.type}`}
        </Badge>
      ))}
    </Group>
  );
}

/**
 * Spec §3 social interests: choose the provider and search type, type to search (debounced; a new term
 * cancels the previous request), pick hits into chips (name, id and, for X, type), remove them.
 */
export function SocialInterestsField(props: FieldProps) {
  const { value, onChange, readOnly } = props;
  const [provider, setProvider] = useState<InterestProvider>('facebook');
  const [searchType, setSearchType] = useState<SearchType>('adinterest');
  const chosen = asInterests(value);

  if (readOnly) return <SocialInterestsDisplay {...props} />;

  const pick = (hit: InterestHit) => {
    if (!chosen.some((c) => String(c.id) === hit.id)) {
      onChange([...chosen, provider === 'x' ? hit : { id: hit.id, name: hit.name }]);
    }
  };
  const remove = (id: string) => {
    const rest = chosen.filter((c) => String(c.id) !== id);
    onChange(rest.length > 0 ? rest : null);
  };

  return (
    <Stack gap="xs" data-testid="social-interests">
      <Group gap="xs" align="flex-end">
        <SegmentedControl
          size="xs"
          value={provider}
          onChange={(next) => setProvider(next as InterestProvider)}
          data={[
            { value: 'facebook', label: 'Facebook' },
            { value: 'x', label: 'X' },
          ]}
        />
        {provider === 'facebook' && (
          <Select
            size="xs"
            aria-label="Search type"
            value={searchType}
            onChange={(next) => next && setSearchType(next as SearchType)}
            data={FACEBOOK_SEARCH_TYPES.map((t) => ({ value: t, label: SEARCH_TYPE_LABELS[t] }))}
            allowDeselect={false}
            w={160}
          />
        )}
      </Group>
      <InterestSearch inputId={props.inputId} provider={provider} searchType={searchType} onPick={pick} />
      <InterestChips chosen={chosen} onRemove={remove} />
    </Stack>
  );
}
