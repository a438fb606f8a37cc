import { useState } from 'react';
import { Alert, Group, Loader, NumberInput, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconInfoCircle, IconMapPin } from '@tabler/icons-react';
import { useParams } from 'react-router';
import { MAP_TILE_SETTING, PLACES_MESSAGES, PLACES_SETTING } from '@shared/api/places';
import { ADDRESS_PARTS, addressLine, type AddressValue } from '@shared/geo/address';
import { isLatitude, isLongitude, type Point } from '@shared/geo/geohash';
import type { FieldProps } from '../fields/types';
import { SettingHintForCaller } from '../setting-hint';
import { errorMessage } from '@web/lib/api-client';
import { AddressMap } from './address-map';
import { PlaceSearch } from './place-search';
import { usePlacesConfig } from './places-api';

const PART_LABELS: Record<(typeof ADDRESS_PARTS)[number], string> = {
  rawAddress: 'Full address',
  streetNumber: 'Number',
  streetAddress: 'Street',
  unit: 'Unit',
  neighborhood: 'Neighborhood',
  city: 'City',
  county: 'County',
  state: 'State',
  postal_code: 'Postal code',
  country: 'Country',
};

const asAddress = (value: unknown): AddressValue =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as AddressValue) : {};

const pointOf = (address: AddressValue): Point | null =>
  isLatitude(address.latitude) && isLongitude(address.longitude)
    ? { latitude: address.latitude, longitude: address.longitude }
    : null;

/** The address without empty parts, and without a geohash (the server computes it on save); null when empty. */
function cleaned(address: AddressValue): AddressValue | null {
  const { geohash: _geohash, geohashes: _geohashes, ...rest } = address;
  const out = Object.fromEntries(
    Object.entries(rest).filter(([, v]) => v !== undefined && v !== null && v !== ''),
  ) as AddressValue;
  return Object.keys(out).length > 0 ? out : null;
}

/** View mode: the address on one line, its coordinates and a small map. */
function AddressView({ address, tileUrl }: { address: AddressValue; tileUrl: string | null }) {
  const line = addressLine(address);
  const point = pointOf(address);
  if (!line && !point) return <Text c="dimmed">—</Text>;
  return (
    <Stack gap={6} data-testid="address-view">
      <Group gap={6} wrap="nowrap" align="flex-start">
        <IconMapPin size={18} stroke={1.5} style={{ flexShrink: 0, marginTop: 2 }} />
        <Text size="sm" data-testid="address-line">
          {line || 'No address, only a point'}
        </Text>
      </Group>
      {point && (
        <>
          <Text size="xs" c="dimmed">
            {point.latitude.toFixed(5)}, {point.longitude.toFixed(5)}
            {address.geohash?.p_9 ? ` · geohash ${address.geohash.p_9}` : ''}
          </Text>
          <AddressMap point={point} tileUrl={tileUrl} height={160} />
        </>
      )}
    </Stack>
  );
}

/**
 * The address field (spec §1 address entry with map lookup, §3 Address value): search through the
 * server's places lookup (debounced; a new term cancels the last request), biased by the browser's
 * position on request; the picked place fills every part, each still editable; a map with a draggable
 * marker sets the point. Without a lookup, the parts and the point are entered by hand.
 */
export function AddressFieldEditor({ value, onChange, readOnly, inputId }: FieldProps) {
  const { workspace: workspaceId = '' } = useParams();
  const config = usePlacesConfig(workspaceId);
  const tileUrl = config.data?.tileUrl ?? null;
  const address = asAddress(value);
  const point = pointOf(address);
  const [focusKey, setFocusKey] = useState(0);

  if (readOnly) return <AddressView address={address} tileUrl={tileUrl} />;

  const update = (patch: Partial<AddressValue>) => onChange(cleaned({ ...address, ...patch }));
  const handleMove = (next: Point) => update(next);
  const handlePick = (picked: AddressValue) => {
    onChange(cleaned(picked));
    setFocusKey((k) => k + 1);
  };
  const handleCoordinate = (key: 'latitude' | 'longitude') => (v: string | number) => {
    update({ [key]: typeof v === 'number' ? v : undefined });
    setFocusKey((k) => k + 1);
  };

  return (
    <Stack gap="sm" id={inputId} data-testid="address-editor">
      {config.isPending && workspaceId ? (
        <Loader size="sm" />
      ) : config.data?.provider ? (
        <PlaceSearch workspaceId={workspaceId} onPick={handlePick} />
      ) : (
        <Alert variant="light" color="gray" icon={<IconInfoCircle size={18} />} p="xs">
          {config.isError ? errorMessage(config.error) : PLACES_MESSAGES.notConfigured}
          {!config.isError && <SettingHintForCaller setting={PLACES_SETTING} />}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="xs" verticalSpacing={6}>
        {ADDRESS_PARTS.map((key) => (
          <TextInput
            key={key}
            size="xs"
            label={PART_LABELS[key]}
            value={address[key] ?? ''}
            onChange={(event) => update({ [key]: event.currentTarget.value })}
            style={key === 'rawAddress' ? { gridColumn: '1 / -1' } : undefined}
          />
        ))}
        <NumberInput
          size="xs"
          label="Latitude"
          min={-90}
          max={90}
          decimalScale={7}
          clampBehavior="none"
          value={address.latitude ?? ''}
          onChange={handleCoordinate('latitude')}
          error={
            address.latitude !== undefined && !isLatitude(address.latitude) ? 'Between -90 and 90' : undefined
          }
        />
        <NumberInput
          size="xs"
          label="Longitude"
          min={-180}
          max={180}
          decimalScale={7}
          clampBehavior="none"
          value={address.longitude ?? ''}
          onChange={handleCoordinate('longitude')}
          error={
            address.longitude !== undefined && !isLongitude(address.longitude)
              ? 'Between -180 and 180'
              : undefined
          }
        />
      </SimpleGrid>
      <AddressMap point={point} tileUrl={tileUrl} onMove={handleMove} focusKey={focusKey} height={280} />
      <Text size="xs" c="dimmed">
        {point
          ? 'Drag the marker, or click the map, to move the point.'
          : 'Click the map to set the point, or type its latitude and longitude.'}
      </Text>
      {!tileUrl && config.isSuccess && (
        <Text size="xs" c="dimmed" component="div" data-testid="map-tiles-not-configured">
          Map tiles are not configured: the map draws a plain grid.
          <SettingHintForCaller setting={MAP_TILE_SETTING} />
        </Text>
      )}
    </Stack>
  );
}
