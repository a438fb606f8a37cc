import { startFakeSocial } from '../tests/fixtures/fake-social';

/**
 * The service providers of the end-to-end server (playwright.config.ts starts it and points the
 * {PROVIDER}_* variables here): the integration tests' fake, on the port given as the first argument.
 */
const port = Number(process.argv[2]);
const fake = await startFakeSocial(port);
console.log(`fake social providers on ${fake.url}`);
