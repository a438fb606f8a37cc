import { useState } from 'react';
import { Button, Group, NumberInput, Popover, Stack, Text, TextInput } from '@mantine/core';
import { IconCurrentLocation, IconMapPin } from '@tabler/icons-react';
import { DEFAULT_NEAR_RADIUS_KM, parseNear } from '@shared/geo/address';
import type { Point } from '@shared/geo/geohash';
import { PlaceSearch } from './place-search';
import { usePlacesConfig } from './places-api';

export interface NearValue {
  center: Point;
  radiusKm: number;
}

const format = (point: Point) => `${+point.latitude.toFixed(6)}, ${+point.longitude.toFixed(6)}`;

/**
 * The "Near" filter of list screens whose schema has an address: a point (typed, found
 * through the address lookup, or the browser's position) and a radius; the list then shows the items
 * within it, nearest first.
 */
export function NearFilter({
  workspaceId,
  value,
  onChange,
}: {
  workspaceId: string;
  value: NearValue | null;
  onChange: (value: NearValue | null) => void;
}) {
  const [opened, setOpened] = useState(false);
  const [text, setText] = useState(value ? format(value.center) : '');
  const [radius, setRadius] = useState<number | string>(value?.radiusKm ?? DEFAULT_NEAR_RADIUS_KM);
  const [problem, setProblem] = useState<string | null>(null);
  const config = usePlacesConfig(workspaceId);

  const handleApply = () => {
    const center = parseNear(text);
    if ('error' in center) return setProblem('Type a latitude and a longitude, e.g. 48.8566, 2.3522');
    const radiusKm = Number(radius);
    if (!(radiusKm > 0 && radiusKm <= 20_000)) return setProblem('The radius is between 0 and 20000 km');
    setProblem(null);
    onChange({ center, radiusKm });
    setOpened(false);
  };
  const handleMyLocation = () =>
    navigator.geolocation?.getCurrentPosition(
      (position) =>
        setText(format({ latitude: position.coords.latitude, longitude: position.coords.longitude })),
      (error) => setProblem(`Your location is not available: ${error.message || 'permission denied'}`),
    );

  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" width={340} shadow="md" withArrow>
      <Popover.Target>
        <Button
          variant={value ? 'light' : 'default'}
          leftSection={<IconMapPin size={16} />}
          onClick={() => setOpened((o) => !o)}
        >
          {value ? `Near · ${value.radiusKm} km` : 'Near'}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs">
          {config.data?.provider && (
            <PlaceSearch
              workspaceId={workspaceId}
              label="Find a place"
              withLocation={false}
              withinPortal={false}
              onPick={(address) => {
                if (typeof address.latitude === 'number' && typeof address.longitude === 'number') {
                  setText(format({ latitude: address.latitude, longitude: address.longitude }));
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
              onChange={(event) => setText(event.currentTarget.value)}
              onKeyDown={(event) => event.key === 'Enter' && handleApply()}
            />
            <Button
              variant="default"
              px="xs"
              aria-label="My location"
              title="My location"
              onClick={handleMyLocation}
            >
              <IconCurrentLocation size={16} />
            </Button>
          </Group>
          <NumberInput label="Radius (km)" min={0.1} max={20000} value={radius} onChange={setRadius} />
          {problem && (
            <Text size="xs" c="red">
              {problem}
            </Text>
          )}
          <Group justify="flex-end" gap="xs">
            {value && (
              <Button
                variant="subtle"
                color="gray"
                onClick={() => {
                  onChange(null);
                  setOpened(false);
                }}
              >
                Clear
              </Button>
            )}
            <Button onClick={handleApply}>Show nearby</Button>
          </Group>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
