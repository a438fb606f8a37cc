import { Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { IconFingerprint } from '@tabler/icons-react';
import type { TwoFactorChallenge } from '@shared/api/two-factor';
import { FormError } from '@web/components/form-error';
import { useSignInSecondStep } from './api/sign-in';

/**
 * The second step of a password sign-in with two-factor on: a code of the app or a recovery code, or
 * one of the account's passkeys.
 */
export function TwoFactorStep({
  pendingToken,
  methods,
  onSignedIn,
  onRestart,
}: {
  pendingToken: string;
  methods: TwoFactorChallenge['methods'];
  onSignedIn: () => void;
  onRestart: () => void;
}) {
  const secondStep = useSignInSecondStep();
  const [isRecovery, setRecovery] = useState(false);
  const [value, setValue] = useState('');
  const hasPasskey = methods.includes('passkey');
  const handlePasskey = () =>
    secondStep.mutate({ pendingToken, usePasskey: true }, { onSuccess: onSignedIn });
  if (!methods.includes('totp'))
    return (
      <Stack gap="md">
        <Text size="sm">Confirm it is you with one of your passkeys.</Text>
        <FormError error={secondStep.error} />
        <Button
          fullWidth
          leftSection={<IconFingerprint size={16} />}
          loading={secondStep.isPending}
          onClick={handlePasskey}
        >
          Use a passkey
        </Button>
        <Group justify="flex-end">
          <Anchor component="button" type="button" size="sm" onClick={onRestart}>
            Start over
          </Anchor>
        </Group>
      </Stack>
    );
  const handleSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const body = isRecovery ? { pendingToken, recoveryCode: value } : { pendingToken, code: value };
    secondStep.mutate(body, { onSuccess: onSignedIn });
  };
  const toggle = () => {
    setRecovery(!isRecovery);
    setValue('');
    secondStep.reset();
  };
  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="md">
        <Text size="sm">
          {isRecovery
            ? 'Enter one of your recovery codes. Each works once.'
            : 'Enter the code your authenticator app shows for Marquee.'}
        </Text>
        <FormError error={secondStep.error} />
        <TextInput
          label={isRecovery ? 'Recovery code' : 'Code'}
          inputMode={isRecovery ? 'text' : 'numeric'}
          autoComplete="one-time-code"
          autoFocus
          value={value}
          onChange={(event) => setValue(event.currentTarget.value)}
        />
        <Button type="submit" fullWidth loading={secondStep.isPending}>
          Verify
        </Button>
        {hasPasskey && (
          <Button
            variant="default"
            fullWidth
            leftSection={<IconFingerprint size={16} />}
            disabled={secondStep.isPending}
            onClick={handlePasskey}
          >
            Use a passkey instead
          </Button>
        )}
        <Group justify="space-between">
          <Anchor component="button" type="button" size="sm" onClick={toggle}>
            {isRecovery ? 'Use a code of the app' : 'Use a recovery code'}
          </Anchor>
          <Anchor component="button" type="button" size="sm" onClick={onRestart}>
            Start over
          </Anchor>
        </Group>
      </Stack>
    </form>
  );
}
