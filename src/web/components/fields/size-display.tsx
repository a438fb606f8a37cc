import { Text, type TextProps } from '@mantine/core';
import { formatSize } from '@shared/text/size';

/** A byte count as '1.50 KB' (spec §5: '0 Bytes', 'Invalid size', 'Size too large', two decimals). */
export function SizeDisplay({ bytes, ...props }: { bytes: number } & TextProps) {
  return (
    <Text component="span" size="sm" {...props}>
      {formatSize(bytes)}
    </Text>
  );
}
