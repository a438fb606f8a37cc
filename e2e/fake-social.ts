import { startFakeSocial } from '../tests/fixtures/fake-social';

/**
 * The social providers of the end-to-end server (playwright.config.ts starts it and points the
 * FACEBOOK_* and X_* variables here): the integration tests' fake, on the port given as the first argument.
 */
const port = Number(process.argv[2]);
const fake = await startFakeSocial(port);
console.log(`fake social providers on ${fake.url}`);
