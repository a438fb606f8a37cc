import { Button, Group, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { IconCurrentLocation } from '@tabler/icons-react';
import type { Point } from '@shared/geo/geohash';
import { PlaceSearch } from './place-search';
import { usePlacesConfig } from './places-api';

/** The Near filter's dropdown: the place lookup, the point typed or found, the radius and the actions. */
export default function NearFilterForm({
  workspaceId,
  text,
  onTextChange,
  onPlaceFound,
  radius,
  onRadiusChange,
  problem,
  onMyLocation,
  onApply,
  onClear,
}: {
  workspaceId: string;
  text: string;
  onTextChange: (text: string) => void;
  onPlaceFound: (point: Point) => void;
  radius: number | string;
  onRadiusChange: (radius: number | string) => void;
  problem: string | null;
  onMyLocation: () => void;
  onApply: () => void;
  onClear?: () => void;
}) {
  const config = usePlacesConfig(workspaceId);
  return (
    <Stack gap="xs">
      {config.data?.provider && (
        <PlaceSearch
          workspaceId={workspaceId}
          label="Find a place"
          withLocation={false}
          withinPortal={false}
          onPick={(address) => {
            if (typeof address.latitude === 'number' && typeof address.longitude === 'number') {
              onPlaceFound({ latitude: address.latitude, longitude: address.longitude });
            }
          }}
        />
      )}
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <TextInput
          style={{ flex: 1 }}
          label="Near latitude, longitude"
          placeholder="48.8566, 2.3522"
          value={text}
          onChange={(event) => onTextChange(event.currentTarget.value)}
          onKeyDown={(event) => event.key === 'Enter' && onApply()}
        />
        <Button variant="default" px="xs" aria-label="My location" title="My location" onClick={onMyLocation}>
          <IconCurrentLocation size={16} />
        </Button>
      </Group>
      <NumberInput label="Radius (km)" min={0.1} max={20000} value={radius} onChange={onRadiusChange} />
      {problem && (
        <Text size="xs" c="red">
          {problem}
        </Text>
      )}
      <Group justify="flex-end" gap="xs">
        {onClear && (
          <Button variant="subtle" color="gray" onClick={onClear}>
            Clear
          </Button>
        )}
        <Button onClick={onApply}>Show nearby</Button>
      </Group>
    </Stack>
  );
}
