import { useEffect, useMemo } from 'react';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { MapContainer, Marker, TileLayer, useMap, useMapEvents } from 'react-leaflet';
import type { Point } from '@shared/geo/geohash';

/**
 * The address field's map (Leaflet through react-leaflet; this module loads only with an address
 * field). Tiles come from MAP_TILE_URL; without one a plain grid labelled with coordinates is drawn
 * in the browser, so nothing is fetched from outside.
 */
export interface AddressMapProps {
  point: Point | null;
  tileUrl: string | null;
  /** Set: the marker drags and a click on the map moves it there. */
  onMove?: (point: Point) => void;
  /** Changes when the map should fly to the point (a place was picked or typed). */
  focusKey?: number;
  height: number;
}

const WORLD_CENTER: [number, number] = [20, 0];

/** A pin drawn with CSS: no marker image to resolve through the bundler. */
const pin = L.divIcon({
  className: '',
  html: '<div style="width:22px;height:22px;border-radius:50% 50% 50% 0;background:var(--mantine-color-indigo-6);border:2px solid #fff;box-shadow:0 1px 4px rgba(0,0,0,.45);transform:rotate(-45deg)"></div>',
  iconSize: [22, 22],
  iconAnchor: [11, 24],
});

const CoordinateGridLayer: new (options?: L.GridLayerOptions) => L.GridLayer = L.GridLayer.extend({
  createTile(this: L.GridLayer & { _map: L.Map }, coords: L.Coords) {
    const size = this.getTileSize();
    const tile = document.createElement('canvas');
    tile.width = size.x;
    tile.height = size.y;
    const g = tile.getContext('2d');
    if (!g) return tile;
    g.fillStyle = '#f1f3f5';
    g.fillRect(0, 0, size.x, size.y);
    // Quarter-tile lines, then the tile's edge, labelled with its north-west corner.
    g.strokeStyle = '#e9ecef';
    for (let i = 1; i < 4; i++) {
      g.beginPath();
      g.moveTo((i * size.x) / 4 + 0.5, 0);
      g.lineTo((i * size.x) / 4 + 0.5, size.y);
      g.moveTo(0, (i * size.y) / 4 + 0.5);
      g.lineTo(size.x, (i * size.y) / 4 + 0.5);
      g.stroke();
    }
    g.strokeStyle = '#ced4da';
    g.strokeRect(0.5, 0.5, size.x - 1, size.y - 1);
    const corner = this._map.wrapLatLng(
      this._map.unproject([coords.x * size.x, coords.y * size.y], coords.z),
    );
    g.fillStyle = '#868e96';
    g.font = '11px system-ui, sans-serif';
    g.fillText(`${corner.lat.toFixed(3)}, ${corner.lng.toFixed(3)}`, 5, 14);
    return tile;
  },
});

function CoordinateGrid() {
  const map = useMap();
  useEffect(() => {
    const layer = new CoordinateGridLayer({ attribution: 'Coordinate grid (no map tiles configured)' });
    layer.addTo(map);
    return () => {
      layer.remove();
    };
  }, [map]);
  return null;
}

function ClickToMove({ onMove }: { onMove: (point: Point) => void }) {
  useMapEvents({
    click(event) {
      const at = event.latlng.wrap();
      onMove({ latitude: at.lat, longitude: at.lng });
    },
  });
  return null;
}

function FlyTo({ point, focusKey }: { point: Point | null; focusKey?: number }) {
  const map = useMap();
  useEffect(() => {
    if (point) map.setView([point.latitude, point.longitude], Math.max(map.getZoom(), 14));
    // Only when asked to (focusKey), not on every drag.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [map, focusKey]);
  return null;
}

export function AddressMap({ point, tileUrl, onMove, focusKey, height }: AddressMapProps) {
  const center = useMemo<[number, number]>(
    () => (point ? [point.latitude, point.longitude] : WORLD_CENTER),
    // The map is centred once; later moves go through FlyTo.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );
  const handleDragEnd = (event: L.DragEndEvent) => {
    const at = (event.target as L.Marker).getLatLng().wrap();
    onMove?.({ latitude: at.lat, longitude: at.lng });
  };
  return (
    <div data-testid="address-map">
      <MapContainer
        center={center}
        zoom={point ? 14 : 2}
        minZoom={1}
        style={{ height, width: '100%', borderRadius: 'var(--mantine-radius-sm)', zIndex: 0 }}
        scrollWheelZoom={!!onMove}
      >
        {tileUrl ? (
          <TileLayer url={tileUrl} attribution="Map data © OpenStreetMap contributors" />
        ) : (
          <CoordinateGrid />
        )}
        {onMove && <ClickToMove onMove={onMove} />}
        <FlyTo point={point} focusKey={focusKey} />
        {point && (
          <Marker
            position={[point.latitude, point.longitude]}
            icon={pin}
            draggable={!!onMove}
            eventHandlers={{ dragend: handleDragEnd }}
            title="Event location"
            alt="Location marker"
          />
        )}
      </MapContainer>
    </div>
  );
}
