import type { ZxcvbnResult } from '@zxcvbn-ts/core';

/**
 * Password strength by zxcvbn (common passwords, English words, names, keyboard patterns, the user's own
 * name and address). zxcvbn and its dictionaries (about 1.6 MB of JavaScript, 60 MB of memory) load with
 * the first password judged, not with the sign-in screen: the imports below are dynamic, which Vite
 * keeps as separate chunks. The server judges in a worker thread instead (auth/password-worker.ts) and
 * uses the pure parts here.
 */

/** zxcvbn's score (0–4) a password needs: 3 is "safely unguessable" for an online attack. */
const MIN_PASSWORD_SCORE = 3;

/** zxcvbn's time grows with length; beyond 100 characters the first 100 decide. */
export const JUDGED_LENGTH = 100;

export interface PasswordStrength {
  /** 0 (too guessable) to 4 (very unguessable). */
  score: ZxcvbnResult['score'];
  isStrongEnough: boolean;
  /** What is wrong and how to do better, for people; empty when strong enough. */
  feedback: string;
}

/** What zxcvbn answers that matters here. */
export type ZxcvbnVerdict = Pick<ZxcvbnResult, 'score' | 'feedback'>;

/** The words a guesser tries first: the user's name and email, whole and in parts. */
export const knownWords = (userInputs: string[]) =>
  userInputs.flatMap((input) => [input, ...input.split(/[\s@.+_-]+/)]).filter(Boolean);

/** zxcvbn's verdict as the app's rule and message. */
export function strengthOf(verdict: ZxcvbnVerdict): PasswordStrength {
  const isStrongEnough = verdict.score >= MIN_PASSWORD_SCORE;
  const hints = [verdict.feedback.warning, ...verdict.feedback.suggestions].filter(Boolean);
  return {
    score: verdict.score,
    isStrongEnough,
    feedback: isStrongEnough ? '' : hints.join(' ') || 'Add another word or two.',
  };
}

/** Judges a password; `userInputs` are words a guesser would try first (the user's name and email). */
export type PasswordJudge = (password: string, userInputs?: string[]) => PasswordStrength;

let judge: Promise<PasswordJudge> | undefined;

/** Loads zxcvbn once (in this thread) and answers the judge. */
export function loadPasswordJudge(): Promise<PasswordJudge> {
  judge ??= Promise.all([
    import('@zxcvbn-ts/core'),
    import('@zxcvbn-ts/language-common'),
    import('@zxcvbn-ts/language-en'),
  ]).then(([{ ZxcvbnFactory }, common, english]) => {
    const zxcvbn = new ZxcvbnFactory({
      translations: english.translations,
      graphs: common.adjacencyGraphs,
      dictionary: { ...common.dictionary, ...english.dictionary },
    });
    return (password, userInputs = []) =>
      strengthOf(zxcvbn.check(password.slice(0, JUDGED_LENGTH), knownWords(userInputs)));
  });
  return judge;
}

/** The message of a refused password. */
export const weakPasswordMessage = (strength: PasswordStrength) =>
  `Password is too easy to guess. ${strength.feedback}`;
