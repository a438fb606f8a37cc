import { useEffect, useMemo, useState } from 'react';
import { Progress, Stack, Text } from '@mantine/core';

import { loadPasswordJudge, type PasswordJudge } from '@shared/text/password-strength';

const LEVELS = [
  { label: 'Too easy to guess', color: 'red' },
  { label: 'Too easy to guess', color: 'red' },
  { label: 'Still easy to guess', color: 'orange' },
  { label: 'Good', color: 'teal' },
  { label: 'Strong', color: 'green' },
] as const;

/** zxcvbn and its dictionaries load with the first character typed, not with the sign-in screen. */
function usePasswordJudge(wanted: boolean) {
  const [judge, setJudge] = useState<{ judge: PasswordJudge }>();
  useEffect(() => {
    if (!wanted || judge) return;
    let live = true;
    void loadPasswordJudge().then((loaded) => live && setJudge({ judge: loaded }));
    return () => {
      live = false;
    };
  }, [wanted, judge]);
  return judge?.judge;
}

/**
 * How guessable a new password is (the server's own rule: zxcvbn score 3 or more, the user's name and
 * email counting as known words), with what to do about it.
 */
export function PasswordStrengthMeter({ password, userInputs }: { password: string; userInputs: string[] }) {
  const judge = usePasswordJudge(password.length > 0);
  const inputsKey = userInputs.join('\n');
  const result = useMemo(
    () => (judge && password ? judge(password, inputsKey.split('\n')) : undefined),
    [judge, password, inputsKey],
  );
  if (!password) return null;
  const level = result ? LEVELS[result.score] : undefined;
  return (
    <Stack gap={4} aria-live="polite">
      <Progress
        value={result ? (result.score + 1) * 20 : 0}
        color={level?.color ?? 'gray'}
        size="sm"
        aria-label="Password strength"
      />
      <Text size="xs" c={level?.color ?? 'dimmed'} fw={500}>
        {level ? `Password strength: ${level.label}` : 'Checking password strength…'}
      </Text>
      {result && !result.isStrongEnough && (
        <Text size="xs" c="dimmed">
          {result.feedback}
        </Text>
      )}
    </Stack>
  );
}
