import { withAddressGeohashes } from '@shared/geo/address';
import type { ItemSaveHook } from '../items/save-hooks';

/** Addresses carry the geohash of their point, computed here whatever the client sent. */
export const addressGeohashesOnSave: ItemSaveHook = (_ctx, scope, data) =>
  withAddressGeohashes(scope.schema, data);
