import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary as commonWords } from '@zxcvbn-ts/language-common';
import { dictionary as englishWords, translations } from '@zxcvbn-ts/language-en';

/**
 * Password strength by zxcvbn (common passwords, English words, names, keyboard patterns, the user's own
 * name and address). Loaded on demand: the dictionaries weigh about 1 MB of JavaScript and 60 MB of
 * memory, so the server imports this module with the first password it checks and the web app with
 * its first strength meter.
 */

/** zxcvbn's score (0–4) a password needs: 3 is "safely unguessable" for an online attack. */
export const MIN_PASSWORD_SCORE = 3;

let checker: ZxcvbnFactory | undefined;
const zxcvbn = () =>
  (checker ??= new ZxcvbnFactory({
    translations,
    graphs: adjacencyGraphs,
    dictionary: { ...commonWords, ...englishWords },
  }));

export interface PasswordStrength {
  /** 0 (too guessable) to 4 (very unguessable). */
  score: 0 | 1 | 2 | 3 | 4;
  isStrongEnough: boolean;
  /** What is wrong and how to do better, for people; empty when strong enough. */
  feedback: string;
}

/** Judges a password; `userInputs` are words a guesser would try first (the user's name and email). */
export function passwordStrength(password: string, userInputs: string[] = []): PasswordStrength {
  // zxcvbn's time grows with length; beyond 100 characters the first 100 decide.
  const inputs = userInputs.flatMap((input) => [input, ...input.split(/[\s@.+_-]+/)]).filter(Boolean);
  const result = zxcvbn().check(password.slice(0, 100), inputs);
  const isStrongEnough = result.score >= MIN_PASSWORD_SCORE;
  const hints = [result.feedback.warning, ...result.feedback.suggestions].filter(Boolean);
  return {
    score: result.score,
    isStrongEnough,
    feedback: isStrongEnough ? '' : hints.join(' ') || 'Add another word or two.',
  };
}

/** The message of a refused password. */
export const weakPasswordMessage = (strength: PasswordStrength) =>
  `Password is too easy to guess. ${strength.feedback}`;
