import { TextInput, type TextInputProps } from '@mantine/core';

/** The email field of the sign-in, sign-up and reset forms: the browser's email keyboard and autofill. */
export function EmailInput(props: TextInputProps) {
  return (
    <TextInput label="Email" type="email" autoComplete="email" placeholder="you@company.com" {...props} />
  );
}
