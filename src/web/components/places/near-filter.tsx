import { lazy, Suspense, useState } from 'react';
import { Button, Group, Loader, Popover } from '@mantine/core';
import { IconMapPin } from '@tabler/icons-react';
import { DEFAULT_NEAR_RADIUS_KM, parseNear } from '@shared/geo/address';
import type { Point } from '@shared/geo/geohash';

// The place lookup and the radius input load when the filter is first opened: list screens paint without them.
const NearFilterForm = lazy(() => import('./near-filter-form'));

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
  const handleClear = () => {
    onChange(null);
    setOpened(false);
  };

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
        <Suspense
          fallback={
            <Group justify="center" p="md">
              <Loader size="sm" />
            </Group>
          }
        >
          <NearFilterForm
            workspaceId={workspaceId}
            text={text}
            onTextChange={setText}
            onPlaceFound={(point) => setText(format(point))}
            radius={radius}
            onRadiusChange={setRadius}
            problem={problem}
            onMyLocation={handleMyLocation}
            onApply={handleApply}
            onClear={value ? handleClear : undefined}
          />
        </Suspense>
      </Popover.Dropdown>
    </Popover>
  );
}
