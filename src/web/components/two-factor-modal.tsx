import {
  Alert,
  Badge,
  Button,
  Code,
  Group,
  Modal,
  PasswordInput,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useState } from 'react';
import type { TwoFactorSetup } from '@shared/api/two-factor';
import { FormError } from '@web/components/form-error';
import { useStartTwoFactorSetup, useTwoFactorChange, useTwoFactorStatus } from '@web/lib/two-factor';

/** Two-factor sign-in of the account: set up with an authenticator app, new recovery codes, or off. */
export function TwoFactorModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { data, isPending, error } = useTwoFactorStatus(opened);
  const [shownCodes, setShownCodes] = useState<string[] | null>(null);
  const handleClose = () => {
    setShownCodes(null);
    onClose();
  };
  return (
    <Modal opened={opened} onClose={handleClose} title="Two-factor sign-in" size="lg">
      <Stack gap="sm">
        <FormError error={error} />
        {shownCodes ? (
          <RecoveryCodes codes={shownCodes} onDone={() => setShownCodes(null)} />
        ) : isPending ? (
          <Skeleton h={80} />
        ) : data?.enabled ? (
          <ManageTwoFactor recoveryCodesLeft={data.recoveryCodesLeft} onCodes={setShownCodes} />
        ) : (
          <SetUpTwoFactor onCodes={setShownCodes} />
        )}
      </Stack>
    </Modal>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <>
      <Alert color="yellow" variant="light">
        Keep these recovery codes somewhere safe. Each signs you in once if you lose your authenticator app.
        They are shown only now.
      </Alert>
      <SimpleGrid cols={2} spacing="xs" data-testid="recovery-codes">
        {codes.map((code) => (
          <Code key={code} fz="sm">
            {code}
          </Code>
        ))}
      </SimpleGrid>
      <Group justify="flex-end">
        <Button onClick={onDone}>Done</Button>
      </Group>
    </>
  );
}

function SetUpTwoFactor({ onCodes }: { onCodes: (codes: string[]) => void }) {
  const setup = useStartTwoFactorSetup();
  const enable = useTwoFactorChange<{ code: string }>('enable');
  const [code, setCode] = useState('');
  const secret: TwoFactorSetup | undefined = setup.data;
  if (!secret)
    return (
      <>
        <Text size="sm" c="dimmed">
          After your password, sign-in will ask for a code from an authenticator app on your phone.
        </Text>
        <FormError error={setup.error} />
        <Group justify="flex-end">
          <Button loading={setup.isPending} onClick={() => setup.mutate()}>
            Set up two-factor sign-in
          </Button>
        </Group>
      </>
    );
  const handleEnable = (event: React.FormEvent) => {
    event.preventDefault();
    enable.mutate({ code }, { onSuccess: (answer) => answer && onCodes(answer.recoveryCodes) });
  };
  return (
    <form onSubmit={handleEnable} noValidate>
      <Stack gap="sm">
        <Text size="sm">Add this key to your authenticator app, then enter the code it shows.</Text>
        <Code block data-testid="totp-secret">
          {secret.secret}
        </Code>
        <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
          Or open this link on the device with the app: <a href={secret.uri}>{secret.uri}</a>
        </Text>
        <FormError error={enable.error} />
        <TextInput
          label="Code"
          inputMode="numeric"
          autoComplete="one-time-code"
          value={code}
          onChange={(event) => setCode(event.currentTarget.value)}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={enable.isPending}>
            Turn on
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function ManageTwoFactor({
  recoveryCodesLeft,
  onCodes,
}: {
  recoveryCodesLeft: number;
  onCodes: (codes: string[]) => void;
}) {
  const regenerate = useTwoFactorChange<{ code?: string; password?: string }>('recovery-codes');
  const disable = useTwoFactorChange<{ code?: string; password?: string }>('disable');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const proof = code ? { code } : { password };
  return (
    <>
      <Group gap="xs">
        <Badge color="green" variant="light">
          On
        </Badge>
        <Text size="sm" c="dimmed">
          {recoveryCodesLeft} of 10 recovery codes left
        </Text>
      </Group>
      <Text size="sm">To change this, enter a current code or your password.</Text>
      <FormError error={regenerate.error ?? disable.error} />
      <TextInput
        label="Current code"
        inputMode="numeric"
        autoComplete="one-time-code"
        value={code}
        onChange={(event) => setCode(event.currentTarget.value)}
      />
      <PasswordInput
        label="Or your password"
        autoComplete="current-password"
        value={password}
        onChange={(event) => setPassword(event.currentTarget.value)}
      />
      <Group justify="flex-end">
        <Button
          variant="default"
          loading={regenerate.isPending}
          onClick={() =>
            regenerate.mutate(proof, { onSuccess: (answer) => answer && onCodes(answer.recoveryCodes) })
          }
        >
          New recovery codes
        </Button>
        <Button color="red" variant="light" loading={disable.isPending} onClick={() => disable.mutate(proof)}>
          Turn off
        </Button>
      </Group>
    </>
  );
}
