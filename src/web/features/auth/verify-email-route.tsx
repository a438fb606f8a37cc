import { useState } from 'react';
import {
  Alert,
  Anchor,
  Button,
  Collapse,
  Divider,
  PasswordInput,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconAlertCircle, IconMailCheck } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useLoaderData, useNavigate, useSearchParams } from 'react-router';
import { ChangeEmailBody } from '@shared/api/auth';
import { RETURN_TO_PARAM, safeReturnTo } from '@web/app/guards';
import { getMe, meQueryKey, useMe } from '@web/lib/auth';
import { AuthLayout } from './components/auth-layout';
import { FormError } from '@web/components/form-error';
import { useChangeEmail } from './api/change-email';
import { useSendVerification } from './api/send-verification';
import { showToast } from '@web/lib/toast';

/**
 * /user/verify-email: shown while the email is unverified (resend, change the address), and the
 * landing page of the mailed link (?token=), which the route's loader follows.
 */
export default function VerifyEmailRoute() {
  const { linkError } = (useLoaderData() as { linkError: string | null } | null) ?? { linkError: null };
  const [params] = useSearchParams();
  const returnTo = safeReturnTo(params.get(RETURN_TO_PARAM));
  const { data: user } = useMe();

  if (!user) {
    return (
      <AuthLayout title="Confirm your email">
        <Stack>
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
            {linkError ?? 'This link is invalid or has expired'}
          </Alert>
          <Text size="sm" c="dimmed">
            Sign in and ask for a new link from the confirmation page.
          </Text>
          <Button component={Link} to="/auth/welcome">
            Sign in
          </Button>
        </Stack>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title="Confirm your email"
      subtitle={
        <>
          We sent a confirmation link to <b>{user.email}</b>. Open it to continue.
        </>
      }
      footer={
        <Anchor component={Link} to="/auth/bye" size="sm">
          Sign out
        </Anchor>
      }
    >
      {linkError && (
        <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert" mb="md">
          {linkError}
        </Alert>
      )}
      {user.emailVerified ? (
        <VerifiedNotice returnTo={returnTo} />
      ) : (
        <PendingVerification returnTo={returnTo} />
      )}
    </AuthLayout>
  );
}

function VerifiedNotice({ returnTo }: { returnTo?: string }) {
  return (
    <Stack>
      <Alert color="teal" variant="light" icon={<IconMailCheck size={18} />}>
        Your email address is confirmed.
      </Alert>
      <Button component={Link} to={returnTo ?? '/'}>
        Continue
      </Button>
    </Stack>
  );
}

function PendingVerification({ returnTo }: { returnTo?: string }) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const send = useSendVerification();
  const [isChecking, setIsChecking] = useState(false);
  const [isChangeOpen, setIsChangeOpen] = useState(false);

  const handleResend = () =>
    send.mutate(returnTo, {
      onSuccess: () =>
        showToast({
          color: 'teal',
          title: 'Email sent',
          message: 'A new confirmation link is on its way.',
        }),
    });

  const handleCheck = async () => {
    setIsChecking(true);
    try {
      const me = await getMe();
      client.setQueryData(meQueryKey, me);
      if (me?.emailVerified) navigate(returnTo ?? '/', { replace: true });
      else
        showToast({
          color: 'yellow',
          title: 'Not confirmed yet',
          message: 'Open the link in the email we sent, then try again.',
        });
    } finally {
      setIsChecking(false);
    }
  };

  return (
    <Stack gap="md">
      <FormError error={send.error} />
      <Button onClick={handleCheck} loading={isChecking}>
        I have confirmed my email
      </Button>
      <Button variant="default" onClick={handleResend} loading={send.isPending}>
        Resend confirmation email
      </Button>
      <Divider label="Wrong address?" labelPosition="center" />
      {!isChangeOpen && (
        <Button variant="subtle" onClick={() => setIsChangeOpen(true)}>
          Change email address
        </Button>
      )}
      <Collapse expanded={isChangeOpen}>
        <ChangeEmailForm returnTo={returnTo} onDone={() => setIsChangeOpen(false)} />
      </Collapse>
    </Stack>
  );
}

function ChangeEmailForm({ returnTo, onDone }: { returnTo?: string; onDone: () => void }) {
  const change = useChangeEmail();
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { newEmail: '', currentPassword: '' },
    validate: schemaResolver(ChangeEmailBody, { sync: true }),
    validateInputOnBlur: true,
  });

  const handleSubmit = form.onSubmit((values) =>
    change.mutate(
      { ...values, ...(returnTo ? { returnTo } : {}) },
      {
        onSuccess: () => {
          showToast({
            color: 'teal',
            title: 'Check your new inbox',
            message: `We sent a confirmation link to ${values.newEmail}.`,
          });
          form.reset();
          onDone();
        },
      },
    ),
  );

  return (
    <form onSubmit={handleSubmit} noValidate aria-label="Change email">
      <FormError error={change.error} />
      <Stack gap="sm">
        <TextInput
          label="New email"
          type="email"
          autoComplete="email"
          key={form.key('newEmail')}
          {...form.getInputProps('newEmail')}
        />
        <PasswordInput
          label="Current password"
          autoComplete="current-password"
          key={form.key('currentPassword')}
          {...form.getInputProps('currentPassword')}
        />
        <Button type="submit" variant="light" loading={change.isPending}>
          Send link to the new address
        </Button>
      </Stack>
    </form>
  );
}
