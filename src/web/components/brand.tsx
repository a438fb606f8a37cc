import { Group, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import { Link } from 'react-router';

export function BrandMark({ size = 30 }: { size?: number }) {
  return (
    <ThemeIcon size={size} radius="md" variant="filled" aria-hidden>
      <svg viewBox="0 0 32 32" width={size * 0.7} height={size * 0.7}>
        <path d="M8 23V9h3.2l4.8 7 4.8-7H24v14h-3.2v-8.6L16 21l-4.8-6.6V23z" fill="currentColor" />
      </svg>
    </ThemeIcon>
  );
}

export function Brand({ to = '/' }: { to?: string }) {
  return (
    <UnstyledButton component={Link} to={to} aria-label="Marquee home">
      <Group gap={8} wrap="nowrap">
        <BrandMark />
        <Text fw={700} size="lg" style={{ letterSpacing: '-0.01em' }}>
          Marquee
        </Text>
      </Group>
    </UnstyledButton>
  );
}
