/** How a value reads inside a message: lists joined with ', ', objects as JSON, nothing for null. */
export function displayValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(displayValue).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * Substitutes %l with the label and %v with the value (spec §5) in one pass, so a label or value that
 * itself contains %l or %v is left as it is.
 */
export function formatMessage(template: string, label: string, value?: unknown): string {
  return template.replace(/%[lv]/g, (token) => (token === '%l' ? label : displayValue(value)));
}
