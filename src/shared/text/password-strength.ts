import type { ZxcvbnResult } from '@zxcvbn-ts/core';

/**
 * Password strength by zxcvbn (common passwords, English words, names, keyboard patterns, the user's own
 * name and address). zxcvbn and its dictionaries (about 1.6 MB of JavaScript, 60 MB of memory) load with
 * the first password judged, not with the server or the sign-in screen: the imports below are dynamic,
 * which both esbuild (server bundle) and Vite (web chunks) keep lazy.
 */

/** zxcvbn's score (0–4) a password needs: 3 is "safely unguessable" for an online attack. */
export const MIN_PASSWORD_SCORE = 3;

export interface PasswordStrength {
  /** 0 (too guessable) to 4 (very unguessable). */
  score: ZxcvbnResult['score'];
  isStrongEnough: boolean;
  /** What is wrong and how to do better, for people; empty when strong enough. */
  feedback: string;
}

/** Judges a password; `userInputs` are words a guesser would try first (the user's name and email). */
export type PasswordJudge = (password: string, userInputs?: string[]) => PasswordStrength;

let judge: Promise<PasswordJudge> | undefined;

/** Loads zxcvbn once and answers the judge. */
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
    return (password, userInputs = []) => {
      const inputs = userInputs.flatMap((input) => [input, ...input.split(/[\s@.+_-]+/)]).filter(Boolean);
      // zxcvbn's time grows with length; beyond 100 characters the first 100 decide.
      const result = zxcvbn.check(password.slice(0, 100), inputs);
      const isStrongEnough = result.score >= MIN_PASSWORD_SCORE;
      const hints = [result.feedback.warning, ...result.feedback.suggestions].filter(Boolean);
      return {
        score: result.score,
        isStrongEnough,
        feedback: isStrongEnough ? '' : hints.join(' ') || 'Add another word or two.',
      };
    };
  });
  return judge;
}

/** The message of a refused password. */
export const weakPasswordMessage = (strength: PasswordStrength) =>
  `Password is too easy to guess. ${strength.feedback}`;
