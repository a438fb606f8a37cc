import argon2 from 'argon2';
import { JUDGED_LENGTH, knownWords, strengthOf, weakPasswordMessage } from '@shared/text/password-strength';
import { badRequest } from '../http/errors';
import { zxcvbnInWorker } from './password-worker';

/**
 * argon2id with 46 MiB and one pass, OWASP's first setting (as strong as its 19 MiB with two passes).
 * Over glibc's 32 MiB ceiling, a hash's memory is always mapped for it and handed back when it is done.
 * A 19 MiB block freed instead raised malloc's threshold for mapping to 19 MiB for good, and from then
 * on each thread's heap kept up to twice that free: the server stayed 45 MB larger after one sign-in.
 */
const OPTIONS = { type: argon2.argon2id, memoryCost: 47_104, timeCost: 1, parallelism: 1 } as const;

export const hashPassword = (password: string) => argon2.hash(password, OPTIONS);

// Verifying against this when the email is unknown keeps the answer's timing the same as for a wrong password.
const DUMMY_HASH = hashPassword('not-a-real-password-' + Math.random());

export async function verifyPassword(hash: string | undefined, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash ?? (await DUMMY_HASH), password);
  } catch {
    return false;
  }
}

/**
 * Refuses, with a 400 naming the field, a password zxcvbn scores below 3 given the user's name and email
 * (judged in a worker thread that holds zxcvbn's dictionaries only while there is work).
 */
export async function requireStrongPassword(password: string, userInputs: string[], field: string) {
  const verdict = await zxcvbnInWorker(password.slice(0, JUDGED_LENGTH), knownWords(userInputs));
  const strength = strengthOf(verdict);
  if (!strength.isStrongEnough) throw badRequest(`${field}: ${weakPasswordMessage(strength)}`);
}
