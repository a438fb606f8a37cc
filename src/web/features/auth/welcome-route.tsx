import { useState } from 'react';
import {
  Alert,
  Anchor,
  Button,
  Divider,
  Group,
  PasswordInput,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconFingerprint, IconLogin2, IconMailOpened } from '@tabler/icons-react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { SignInBody, SignUpBody } from '@shared/api/auth';
import type { TwoFactorChallenge } from '@shared/api/two-factor';
import { RETURN_TO_PARAM, safeReturnTo } from '@web/app/guards';
import { EmailInput } from './components/email-input';
import { PasswordStrengthMeter } from './components/password-strength-meter';
import { AuthLayout } from './components/auth-layout';
import { FormError } from '@web/components/form-error';
import { useSignIn } from './api/sign-in';
import { usePasskeySignIn } from './api/passkey-sign-in';
import { isPasskeySupported } from '@web/lib/passkeys';
import { TwoFactorStep } from './two-factor-step';
import { ssoWorkspaceOf, startSsoSignIn } from '@web/lib/sso';
import { SSO_ERROR_PARAM, useSsoSignIn } from './api/sso-sign-in';
import { useSignUp } from './api/sign-up';

type Mode = 'sign-in' | 'sign-up';

/** /auth/welcome: sign in or create an account; the route's guard decides where a signed-in user goes. */
export default function WelcomeRoute() {
  const [params] = useSearchParams();
  const [mode, setMode] = useState<Mode>(params.get('mode') === 'sign-up' ? 'sign-up' : 'sign-in');
  const returnTo = safeReturnTo(params.get(RETURN_TO_PARAM));
  // Invitation mails link here with ?email= (and ?mode=sign-up for an address without an account): the
  // invited address is filled in.
  const invitedEmail = params.get('email') ?? '';

  return (
    <AuthLayout
      title={mode === 'sign-in' ? 'Welcome back' : 'Create your account'}
      subtitle={
        returnTo
          ? 'Sign in to continue to the page you asked for.'
          : mode === 'sign-in'
            ? 'Sign in to your Marquee workspaces.'
            : 'Start managing content with your team in minutes.'
      }
    >
      <SegmentedControl
        fullWidth
        mb="lg"
        value={mode}
        onChange={(value) => setMode(value as Mode)}
        data={[
          { label: 'Sign in', value: 'sign-in' },
          { label: 'Create account', value: 'sign-up' },
        ]}
      />
      {invitedEmail && (
        <Alert variant="light" icon={<IconMailOpened size={18} />} mb="md" data-testid="invitation-notice">
          You have been invited to Marquee. {mode === 'sign-in' ? 'Sign in' : 'Create your account'} with{' '}
          <b>{invitedEmail}</b> to join.
        </Alert>
      )}
      {mode === 'sign-in' ? (
        <SignInForm email={invitedEmail} />
      ) : (
        <SignUpForm email={invitedEmail} returnTo={returnTo} />
      )}
    </AuthLayout>
  );
}

/** After signing in or up, visit the same URL again: the welcome guard then sends the user on. */
function useContinue() {
  const navigate = useNavigate();
  const location = useLocation();
  return () => navigate(location.pathname + location.search, { replace: true });
}

function SignInForm({ email }: { email: string }) {
  const signIn = useSignIn();
  const sso = useSsoSignIn();
  const [params] = useSearchParams();
  const handleContinue = useContinue();
  const returnTo = safeReturnTo(params.get(RETURN_TO_PARAM));
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { email, password: '' },
    validate: schemaResolver(SignInBody, { sync: true }),
    validateInputOnBlur: true,
  });

  const [pending, setPending] = useState<TwoFactorChallenge | null>(null);
  const handleSubmit = form.onSubmit((values) =>
    signIn.mutate(values, {
      onSuccess: (result) => ('pendingToken' in result ? setPending(result) : handleContinue()),
      // An address whose workspace enforces single sign-on goes to its provider instead.
      onError: (err) => {
        const workspaceId = ssoWorkspaceOf(err);
        if (workspaceId) startSsoSignIn(workspaceId, { returnTo });
      },
    }),
  );
  const handleSso = () => {
    if (form.validateField('email').hasError) return;
    sso.mutate({ email: form.getValues().email, returnTo });
  };
  const ssoError = params.get(SSO_ERROR_PARAM);

  const passkey = usePasskeySignIn();
  // An address whose workspace enforces single sign-on is sent to its provider, as after a password.
  const handlePasskey = () =>
    passkey.mutate(undefined, {
      onSuccess: handleContinue,
      onError: (err) => {
        const workspaceId = ssoWorkspaceOf(err);
        if (workspaceId) startSsoSignIn(workspaceId, { returnTo });
      },
    });

  if (pending)
    return (
      <TwoFactorStep
        pendingToken={pending.pendingToken}
        methods={pending.methods}
        onSignedIn={handleContinue}
        onRestart={() => setPending(null)}
      />
    );
  return (
    <form onSubmit={handleSubmit} noValidate>
      {ssoError && (
        <Alert color="red" variant="light" mb="md" data-testid="sso-error">
          {ssoError}
        </Alert>
      )}
      <FormError
        error={
          ssoWorkspaceOf(signIn.error) || ssoWorkspaceOf(passkey.error)
            ? null
            : (signIn.error ?? sso.error ?? passkey.error)
        }
      />
      <Stack gap="md">
        <EmailInput key={form.key('email')} {...form.getInputProps('email')} />
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          key={form.key('password')}
          {...form.getInputProps('password')}
        />
        <Group justify="flex-end" mt={-6}>
          <Anchor component={Link} to="/auth/forgot-password" size="sm">
            Forgot password?
          </Anchor>
        </Group>
        <Button type="submit" fullWidth loading={signIn.isPending}>
          Sign in
        </Button>
        <Divider label="or" labelPosition="center" />
        <Button
          variant="default"
          fullWidth
          leftSection={<IconLogin2 size={16} />}
          onClick={handleSso}
          loading={sso.isPending || !!ssoWorkspaceOf(signIn.error)}
        >
          Continue with single sign-on
        </Button>
        {isPasskeySupported() && (
          <Button
            variant="default"
            fullWidth
            leftSection={<IconFingerprint size={16} />}
            onClick={handlePasskey}
            loading={passkey.isPending || !!ssoWorkspaceOf(passkey.error)}
          >
            Sign in with a passkey
          </Button>
        )}
      </Stack>
    </form>
  );
}

function SignUpForm({ email, returnTo }: { email: string; returnTo?: string }) {
  const signUp = useSignUp();
  const handleContinue = useContinue();
  // What the strength meter judges: the password, and the name and email it must not be made of.
  const [typed, setTyped] = useState({ name: '', email, password: '' });
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { name: '', email, password: '' },
    validate: schemaResolver(SignUpBody, { sync: true }),
    validateInputOnBlur: true,
    onValuesChange: setTyped,
  });

  const handleSubmit = form.onSubmit((values) =>
    signUp.mutate({ ...values, ...(returnTo ? { returnTo } : {}) }, { onSuccess: handleContinue }),
  );

  return (
    <form onSubmit={handleSubmit} noValidate>
      <FormError error={signUp.error} />
      <Stack gap="md">
        <TextInput
          label="Name"
          autoComplete="name"
          placeholder="Ada Lovelace"
          key={form.key('name')}
          {...form.getInputProps('name')}
        />
        <EmailInput label="Work email" key={form.key('email')} {...form.getInputProps('email')} />
        <PasswordInput
          label="Password"
          description="At least 8 characters and hard to guess: a few unrelated words work well"
          autoComplete="new-password"
          key={form.key('password')}
          {...form.getInputProps('password')}
        />
        <PasswordStrengthMeter password={typed.password} userInputs={[typed.name, typed.email]} />
        <Button type="submit" fullWidth loading={signUp.isPending}>
          Create account
        </Button>
        <Text size="xs" c="dimmed" ta="center">
          We will email you a link to confirm your address.
        </Text>
      </Stack>
    </form>
  );
}
