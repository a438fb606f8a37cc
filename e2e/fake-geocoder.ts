import { startFakeNominatim } from '../tests/fixtures/fake-places';
import { startFakeVisualisation } from './fake-visualisation';

/**
 * The geocoder of the end-to-end server (playwright.config.ts starts it and points GEOCODER_URL here):
 * the Nominatim stand-in of the integration tests, on the port given as the first argument.
 */
const port = Number(process.argv[2]);
const fake = await startFakeNominatim(undefined, port);
console.log(`fake geocoder on ${fake.url}`);
// The dashboard's visualisation service, on the port given second.
await startFakeVisualisation(Number(process.argv[3]));
