import { MultiSelect, NumberInput, SegmentedControl, Select, TagsInput, TextInput } from '@mantine/core';
import { isMultiValue, type AttributeType } from '@shared/criteria/operators';
import type { RuleValue } from '@shared/criteria/tree';

/** Spec §8: an option that no longer exists. */
const oldValueLabel = (value: string) => `--Old Value--${value}`;

/** The option list, plus the rule's values that are no longer options (shown as old values). */
function optionsWith(options: readonly string[], values: readonly string[]) {
  const stale = values.filter((value) => !options.includes(value));
  return [
    ...options.map((value) => ({ value, label: value })),
    ...stale.map((value) => ({ value, label: oldValueLabel(value) })),
  ];
}

/** A fresh value for a type and operator (what a rule holds right after either is chosen). */
export function defaultValue(type: AttributeType, operator: string, options: readonly string[]): RuleValue {
  if (type === 'date') return 7;
  if (isMultiValue(operator)) return [];
  if (type === 'number') return 0;
  if (type === 'boolean') return true;
  if (type === 'categorical') return options[0] ?? '';
  return '';
}

interface ValueInputProps {
  type: AttributeType;
  operator: string;
  options: readonly string[];
  value: RuleValue | undefined;
  onChange: (value: RuleValue) => void;
  readOnly: boolean;
  label: string;
}

/** The editor that fits a type and operator: number, text, option pickers, yes/no, or days. */
export function ValueInput({ type, operator, options, value, onChange, readOnly, label }: ValueInputProps) {
  const common = { size: 'xs', 'aria-label': label, disabled: readOnly } as const;
  if (type === 'date') {
    return (
      <NumberInput
        {...common}
        w={110}
        min={0}
        allowDecimal={false}
        rightSection={<span style={{ fontSize: 11, color: 'var(--mantine-color-dimmed)' }}>days</span>}
        rightSectionWidth={40}
        value={typeof value === 'number' ? value : 0}
        onChange={(next) => onChange(typeof next === 'number' ? next : 0)}
      />
    );
  }
  if (type === 'boolean') {
    return (
      <SegmentedControl
        size="xs"
        aria-label={label}
        disabled={readOnly}
        data={[
          { value: 'true', label: 'Yes' },
          { value: 'false', label: 'No' },
        ]}
        value={value === false ? 'false' : 'true'}
        onChange={(next) => onChange(next === 'true')}
      />
    );
  }
  if (isMultiValue(operator)) {
    const list = Array.isArray(value) ? value.map(String) : [];
    if (type === 'categorical' || type === 'array') {
      return (
        <MultiSelect
          {...common}
          miw={180}
          data={optionsWith(options, list)}
          value={list}
          onChange={onChange}
          placeholder="Choose values"
        />
      );
    }
    return (
      <TagsInput
        {...common}
        miw={180}
        value={list}
        placeholder={type === 'number' ? 'Type a number, Enter' : 'Type a value, Enter'}
        onChange={(next) =>
          onChange(type === 'number' ? next.map(Number).filter((n) => Number.isFinite(n)) : next)
        }
      />
    );
  }
  if (type === 'number') {
    return (
      <NumberInput
        {...common}
        w={110}
        value={typeof value === 'number' ? value : 0}
        onChange={(next) => onChange(typeof next === 'number' ? next : Number(next) || 0)}
      />
    );
  }
  if (type === 'categorical') {
    const current = typeof value === 'string' ? value : '';
    return (
      <Select
        {...common}
        w={170}
        data={optionsWith(options, current ? [current] : [])}
        value={current || null}
        allowDeselect={false}
        onChange={(next) => onChange(next ?? '')}
        placeholder="Choose a value"
      />
    );
  }
  return (
    <TextInput
      {...common}
      w={170}
      value={typeof value === 'string' ? value : ''}
      onChange={(event) => onChange(event.currentTarget.value)}
    />
  );
}
