import { Alert } from '@mantine/core';
import { errorMessage } from '@web/lib/api-client';
import { SettingHintForCaller, settingOf } from '../setting-hint';

/**
 * How a test send went: the server's 'Test sent to …', or its refusal with who can switch the provider
 * on when it was 'Service not configured'. Closing either forgets it.
 */
export function TestSendOutcome({
  send,
}: {
  send: {
    isSuccess: boolean;
    isError: boolean;
    data?: { message: string };
    error: unknown;
    reset: () => void;
  };
}) {
  const setting = settingOf(send.error);
  if (send.isSuccess && send.data)
    return (
      <Alert color="teal" variant="light" role="status" withCloseButton onClose={() => send.reset()}>
        {send.data.message}
      </Alert>
    );
  if (send.isError)
    return (
      <Alert color="red" variant="light" role="alert" withCloseButton onClose={() => send.reset()}>
        {errorMessage(send.error)}
        {setting && <SettingHintForCaller setting={setting} />}
      </Alert>
    );
  return null;
}
