import { useState } from 'react';
import { Alert, Anchor, Button, PasswordInput, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle } from '@tabler/icons-react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Password } from '@shared/api/auth';
import { welcomeUrl } from '@web/app/guards';
import { AuthLayout } from './components/auth-layout';
import { PasswordStrengthMeter } from './components/password-strength-meter';
import { FormError } from '@web/components/form-error';
import { useResetPassword } from './api/reset-password';
import { showToast } from '@web/lib/toast';

/** /auth/reset-password?token=…: the mailed link's form for a new password. */
export default function ResetPasswordRoute() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const reset = useResetPassword();
  const [typed, setTyped] = useState('');
  const form = useForm({
    mode: 'uncontrolled',
    onValuesChange: ({ password }) => setTyped(password),
    initialValues: { password: '', confirm: '' },
    validateInputOnBlur: true,
    validate: {
      password: (value) => {
        const result = Password.safeParse(value);
        return result.success ? null : result.error.issues[0].message;
      },
      confirm: (value, values) => (value === values.password ? null : 'Passwords do not match'),
    },
  });

  const handleSubmit = form.onSubmit(({ password }) =>
    reset.mutate(
      { token, password },
      {
        onSuccess: ({ returnTo }) => {
          showToast({
            color: 'teal',
            title: 'Password changed',
            message: 'Sign in with your new password.',
          });
          navigate(welcomeUrl(returnTo));
        },
      },
    ),
  );

  return (
    <AuthLayout
      title="Choose a new password"
      footer={
        <Anchor component={Link} to="/auth/welcome" size="sm">
          Back to sign in
        </Anchor>
      }
    >
      {!token ? (
        <Stack>
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />}>
            This link is invalid or has expired
          </Alert>
          <Button component={Link} to="/auth/forgot-password" variant="light">
            Send a new link
          </Button>
        </Stack>
      ) : (
        <form onSubmit={handleSubmit} noValidate>
          <FormError error={reset.error} />
          <Stack gap="md">
            <PasswordInput
              label="New password"
              description="At least 8 characters and hard to guess: a few unrelated words work well"
              autoComplete="new-password"
              key={form.key('password')}
              {...form.getInputProps('password')}
            />
            <PasswordStrengthMeter password={typed} userInputs={[]} />
            <PasswordInput
              label="Repeat the new password"
              autoComplete="new-password"
              key={form.key('confirm')}
              {...form.getInputProps('confirm')}
            />
            <Button type="submit" fullWidth loading={reset.isPending}>
              Save new password
            </Button>
          </Stack>
        </form>
      )}
    </AuthLayout>
  );
}
