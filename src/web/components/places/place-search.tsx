import { useState } from 'react';
import {
  Badge,
  Button,
  CloseButton,
  Combobox,
  Group,
  Loader,
  Stack,
  Text,
  TextInput,
  useCombobox,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconCurrentLocation, IconSearch } from '@tabler/icons-react';
import type { AddressValue } from '@shared/geo/address';
import { errorMessage } from '@web/lib/api-client';
import { getPlace, usePlaceSearch, type Bias } from './places-api';

/** 'Use my location': the browser's position, asked for when the user clicks, biases the suggestions. */
function useBrowserBias() {
  const [bias, setBias] = useState<Bias | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const ask = () => {
    if (!('geolocation' in navigator)) {
      setProblem('This browser cannot tell its location.');
      return;
    }
    setAsking(true);
    navigator.geolocation.getCurrentPosition(
      (position) => {
        setAsking(false);
        setProblem(null);
        setBias({ latitude: position.coords.latitude, longitude: position.coords.longitude });
      },
      (error) => {
        setAsking(false);
        setProblem(`Your location is not available: ${error.message || 'permission denied'}`);
      },
      { maximumAge: 10 * 60_000, timeout: 15_000 },
    );
  };
  return { bias, problem, asking, ask, clear: () => setBias(null) };
}

/** Looks up the address of a chosen suggestion, then hands it on; says why when it cannot. */
function usePickPlace(workspaceId: string, onPicked: (address: AddressValue) => void) {
  const [picking, setPicking] = useState(false);
  const [pickError, setPickError] = useState<string | null>(null);
  const pick = async (placeId: string) => {
    setPicking(true);
    setPickError(null);
    try {
      onPicked(await getPlace(workspaceId, placeId));
    } catch (e) {
      setPickError(errorMessage(e));
    } finally {
      setPicking(false);
    }
  };
  return { picking, pickError, pick };
}

/** The dropdown's options: the suggestions, or why there are none. */
function PlaceSuggestionOptions({ search }: { search: ReturnType<typeof usePlaceSearch> }) {
  const suggestions = search.data?.suggestions ?? [];
  return (
    <Combobox.Options aria-label="Address suggestions">
      {search.isError ? (
        <Combobox.Empty>{errorMessage(search.error)}</Combobox.Empty>
      ) : suggestions.length === 0 ? (
        <Combobox.Empty>No places found</Combobox.Empty>
      ) : (
        suggestions.map((s) => (
          <Combobox.Option value={s.placeId} key={s.placeId}>
            <Text size="sm">{s.mainText}</Text>
            {s.secondaryText && (
              <Text size="xs" c="dimmed">
                {s.secondaryText}
              </Text>
            )}
          </Combobox.Option>
        ))
      )}
    </Combobox.Options>
  );
}

/**
 * Address search through the server's places lookup: debounced, the last request cancelled when the term
 * changes, suggestions biased by the browser's position after 'Use my location'.
 */
export function PlaceSearch({
  workspaceId,
  onPick,
  label = 'Search address',
  withLocation = true,
  withinPortal = true,
}: {
  workspaceId: string;
  onPick: (address: AddressValue) => void;
  label?: string;
  /** Offer 'Use my location' to bias the suggestions. */
  withLocation?: boolean;
  /** False inside a popover, so picking a suggestion is not a click outside it. */
  withinPortal?: boolean;
}) {
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const [term, setTerm] = useState('');
  const [q] = useDebouncedValue(term.trim(), 300);
  const location = useBrowserBias();
  const search = usePlaceSearch(workspaceId, q, location.bias, true);
  const { picking, pickError, pick } = usePickPlace(workspaceId, (address) => {
    onPick(address);
    setTerm('');
  });

  return (
    <Stack gap={6}>
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <Combobox
          store={combobox}
          withinPortal={withinPortal}
          onOptionSubmit={(placeId) => {
            combobox.closeDropdown();
            void pick(placeId);
          }}
        >
          <Combobox.Target>
            <TextInput
              style={{ flex: 1 }}
              label={label}
              placeholder="Type an address or a place"
              leftSection={<IconSearch size={16} />}
              rightSection={
                search.isFetching || picking ? (
                  <Loader size={14} />
                ) : term ? (
                  <CloseButton size="sm" aria-label="Clear address search" onClick={() => setTerm('')} />
                ) : undefined
              }
              value={term}
              onChange={(event) => {
                setTerm(event.currentTarget.value);
                combobox.openDropdown();
                combobox.updateSelectedOptionIndex();
              }}
              onFocus={() => combobox.openDropdown()}
              onBlur={() => combobox.closeDropdown()}
            />
          </Combobox.Target>
          <Combobox.Dropdown hidden={q.length < 2 || (!search.data && !search.isError)}>
            <PlaceSuggestionOptions search={search} />
          </Combobox.Dropdown>
        </Combobox>
        {withLocation && (
          <Button
            variant="default"
            leftSection={<IconCurrentLocation size={16} />}
            loading={location.asking}
            onClick={location.ask}
          >
            Use my location
          </Button>
        )}
      </Group>
      {location.bias && (
        <Group gap={4}>
          <Badge variant="light" color="indigo" tt="none">
            Suggestions near your location
          </Badge>
          <CloseButton size="xs" aria-label="Stop using my location" onClick={location.clear} />
        </Group>
      )}
      {(location.problem || pickError) && (
        <Text size="xs" c="red">
          {pickError ?? location.problem}
        </Text>
      )}
    </Stack>
  );
}
