import { lazy, Suspense } from 'react';
import { AddressDisplay } from '../fields/read-only-displays';
import type { FieldProps } from '../fields/types';

/** Leaflet and the lookup load with the first address field on screen, never with a list. */
const AddressFieldEditor = lazy(() =>
  import('./address-field-editor').then((m) => ({ default: m.AddressFieldEditor })),
);

/** The address field, with the plain address display while its code loads. */
export function AddressField(props: FieldProps) {
  return (
    <Suspense fallback={<AddressDisplay {...props} />}>
      <AddressFieldEditor {...props} />
    </Suspense>
  );
}
