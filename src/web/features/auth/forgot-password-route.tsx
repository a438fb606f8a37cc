import { Alert, Anchor, Button, Stack } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconMailCheck } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { RequestPasswordResetBody } from '@shared/api/auth';
import { RETURN_TO_PARAM, safeReturnTo } from '@web/app/guards';
import { EmailInput } from './components/email-input';
import { AuthLayout } from './components/auth-layout';
import { FormError } from '@web/components/form-error';
import { useRequestPasswordReset } from './api/request-password-reset';

/** /auth/forgot-password: asks for a reset link by email. The answer never says whether the account exists. */
export default function ForgotPasswordRoute() {
  const [params] = useSearchParams();
  const returnTo = safeReturnTo(params.get(RETURN_TO_PARAM));
  const request = useRequestPasswordReset();
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { email: '' },
    validate: schemaResolver(RequestPasswordResetBody, { sync: true }),
    validateInputOnBlur: true,
  });

  const handleSubmit = form.onSubmit((values) =>
    request.mutate({ ...values, ...(returnTo ? { returnTo } : {}) }),
  );

  return (
    <AuthLayout
      title="Reset your password"
      subtitle="Enter the email you signed up with and we will send you a link to choose a new password."
      footer={
        <Anchor component={Link} to="/auth/welcome" size="sm">
          Back to sign in
        </Anchor>
      }
    >
      {request.isSuccess ? (
        <Alert color="teal" variant="light" icon={<IconMailCheck size={20} />} title="Check your inbox">
          If an account exists for {form.getValues().email}, a link to reset the password is on its way. The
          link expires after a while, so use it soon.
        </Alert>
      ) : (
        <form onSubmit={handleSubmit} noValidate>
          <FormError error={request.error} />
          <Stack gap="md">
            <EmailInput key={form.key('email')} {...form.getInputProps('email')} />
            <Button type="submit" fullWidth loading={request.isPending}>
              Send reset link
            </Button>
          </Stack>
        </form>
      )}
    </AuthLayout>
  );
}
