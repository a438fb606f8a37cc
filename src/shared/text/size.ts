export const SIZE_UNITS = ['Bytes', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'] as const;
const INVALID_SIZE = 'Invalid size';
const SIZE_TOO_LARGE = 'Size too large';

/**
 * Spec §5 size display: '0 Bytes' for 0, 'Invalid size' for negative or NaN, 'Size too large' past the
 * largest unit (YB), otherwise two decimals in 1024-based units: 1536 → '1.50 KB'.
 */
export function formatSize(bytes: number): string {
  if (Number.isNaN(bytes) || bytes < 0) return INVALID_SIZE;
  if (bytes === 0) return '0 Bytes';
  let value = bytes;
  let unit = 0;
  // Move up while the rounded figure would read 1024.00 or more, so 1048575 bytes reads '1.00 MB'.
  while (Number(value.toFixed(2)) >= 1024) {
    value /= 1024;
    unit += 1;
    if (unit >= SIZE_UNITS.length) return SIZE_TOO_LARGE;
  }
  return `${value.toFixed(2)} ${SIZE_UNITS[unit]}`;
}
