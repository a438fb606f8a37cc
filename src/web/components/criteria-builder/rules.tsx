import { ActionIcon, Button, Group, NumberInput, Paper, Select, Text, Tooltip } from '@mantine/core';
import { IconFilter, IconTrash } from '@tabler/icons-react';
import type { CriteriaDefinitions } from '@shared/api/customers';
import {
  EVENT_CONDITIONS,
  LOOK_BACK_UNITS,
  operatorsFor,
  type AttributeType,
} from '@shared/criteria/operators';
import type { AttributeRule, AudienceRule, EventRule } from '@shared/criteria/tree';
import { newWhereClause, EventWhereClause, withoutWhere } from './event-where-clause';
import { defaultValue, ValueInput } from './value-input';

const PLACEHOLDERS = {
  attribute: 'Attribute not selected',
  event: 'Event not selected',
  audience: 'Audience not selected',
  unnamedAudience: '-- UNNAMED AUDIENCE --',
  missingAudience: '-- AUDIENCE MISSING --',
} as const;

interface RuleProps<R> {
  rule: R;
  defs: CriteriaDefinitions;
  onChange: (rule: R) => void;
  onRemove: () => void;
  readOnly: boolean;
  label: string;
}

function RuleShell({
  kind,
  label,
  onRemove,
  readOnly,
  children,
}: {
  kind: string;
  label: string;
  onRemove: () => void;
  readOnly: boolean;
  children: React.ReactNode;
}) {
  return (
    <Paper withBorder p={6} radius="sm" data-rule={kind} data-node={label}>
      <Group gap={6} wrap="wrap" align="center">
        <Text size="xs" fw={600} c="dimmed" w={62}>
          {kind}
        </Text>
        {children}
        {!readOnly && (
          <Tooltip label="Remove rule">
            <ActionIcon
              variant="subtle"
              color="gray"
              size="sm"
              ml="auto"
              onClick={onRemove}
              aria-label={`Remove rule ${label}`}
            >
              <IconTrash size={14} />
            </ActionIcon>
          </Tooltip>
        )}
      </Group>
    </Paper>
  );
}

export function AttributeRuleRow({
  rule,
  defs,
  onChange,
  onRemove,
  readOnly,
  label,
}: RuleProps<AttributeRule>) {
  const ref = rule.predicate.attribute;
  const attribute = defs.attributes.find((a) => a.id === ref?.id);
  const type = attribute?.type as AttributeType | undefined;
  const choose = (id: string | null) => {
    const next = defs.attributes.find((a) => a.id === id);
    if (!next) return onChange({ type: 'attribute', predicate: {} });
    const operator = operatorsFor(next.type)[0];
    onChange({
      type: 'attribute',
      predicate: { attribute: { schemaType: 'customer-profile-attribute', id: next.id, label: next.label } },
      operator,
      value: defaultValue(next.type, operator, next.options),
    });
  };
  return (
    <RuleShell kind="Attribute" label={label} onRemove={onRemove} readOnly={readOnly}>
      <Select
        size="xs"
        w={170}
        aria-label={`Attribute of rule ${label}`}
        placeholder={ref?.id && !attribute ? (ref.label ?? ref.id) : PLACEHOLDERS.attribute}
        data={defs.attributes.map((a) => ({ value: a.id, label: a.label }))}
        value={attribute?.id ?? null}
        onChange={choose}
        searchable
        disabled={readOnly}
      />
      {attribute && type && (
        <>
          <Select
            size="xs"
            w={150}
            aria-label={`Operator of rule ${label}`}
            data={[...operatorsFor(type)]}
            value={rule.operator ?? null}
            allowDeselect={false}
            disabled={readOnly}
            onChange={(operator) =>
              operator &&
              onChange({
                ...rule,
                operator: operator as AttributeRule['operator'],
                value: defaultValue(type, operator, attribute.options),
              })
            }
          />
          {rule.operator && (
            <ValueInput
              type={type}
              operator={rule.operator}
              options={attribute.options}
              value={rule.value}
              onChange={(value) => onChange({ ...rule, value })}
              readOnly={readOnly}
              label={`Value of rule ${label}`}
            />
          )}
        </>
      )}
    </RuleShell>
  );
}

export function AudienceRuleRow({
  rule,
  defs,
  onChange,
  onRemove,
  readOnly,
  label,
}: RuleProps<AudienceRule>) {
  const ref = rule.predicate.remote;
  const audience = defs.audiences.find((a) => a.id === ref?.id);
  const placeholder = !ref?.id
    ? PLACEHOLDERS.audience
    : audience
      ? PLACEHOLDERS.unnamedAudience
      : PLACEHOLDERS.missingAudience;
  return (
    <RuleShell kind="Audience" label={label} onRemove={onRemove} readOnly={readOnly}>
      <Text size="xs">is in</Text>
      <Select
        size="xs"
        w={220}
        aria-label={`Audience of rule ${label}`}
        placeholder={placeholder}
        data={defs.audiences.map((a) => ({ value: a.id, label: a.label || PLACEHOLDERS.unnamedAudience }))}
        value={audience ? audience.id : null}
        searchable
        disabled={readOnly}
        onChange={(id) => {
          const next = defs.audiences.find((a) => a.id === id);
          onChange({
            type: 'audience',
            predicate: next ? { remote: { schemaType: 'audience', id: next.id, label: next.label } } : {},
          });
        }}
      />
    </RuleShell>
  );
}

type EventPartProps = Pick<RuleProps<EventRule>, 'rule' | 'onChange' | 'readOnly' | 'label'>;

/** How often the event happened (COUNT) or the sum of a numeric property (TOTAL), compared to a value. */
function EventAggregateInputs({
  rule,
  numericProperties,
  onChange,
  readOnly,
  label,
}: EventPartProps & { numericProperties: readonly string[] }) {
  return (
    <>
      <Select
        size="xs"
        w={90}
        aria-label={`Aggregator of rule ${label}`}
        data={numericProperties.length ? ['COUNT', 'TOTAL'] : ['COUNT']}
        value={rule.aggregator}
        allowDeselect={false}
        disabled={readOnly}
        onChange={(aggregator) => {
          const { property: _dropped, ...rest } = rule;
          onChange(
            aggregator === 'TOTAL'
              ? { ...rest, aggregator: 'TOTAL', property: numericProperties[0] }
              : { ...rest, aggregator: 'COUNT' },
          );
        }}
      />
      {rule.aggregator === 'TOTAL' && (
        <Select
          size="xs"
          w={110}
          aria-label={`Summed property of rule ${label}`}
          data={[...numericProperties]}
          value={rule.property ?? null}
          disabled={readOnly}
          onChange={(property) => onChange({ ...rule, property: property ?? undefined })}
        />
      )}
      <Select
        size="xs"
        w={120}
        aria-label={`Condition of rule ${label}`}
        data={EVENT_CONDITIONS.map((c) => ({ value: c.value, label: c.label }))}
        value={rule.aggregatorCondition}
        allowDeselect={false}
        disabled={readOnly}
        onChange={(condition) =>
          condition &&
          onChange({ ...rule, aggregatorCondition: condition as EventRule['aggregatorCondition'] })
        }
      />
      <NumberInput
        size="xs"
        w={80}
        aria-label={`Value of rule ${label}`}
        value={rule.aggregatorValue}
        disabled={readOnly}
        onChange={(value) => onChange({ ...rule, aggregatorValue: typeof value === 'number' ? value : 0 })}
      />
    </>
  );
}

/** "in the last N days", or anytime. */
function LookBackInputs({ rule, onChange, readOnly, label }: EventPartProps) {
  return (
    <>
      <Text size="xs">{rule.lookBackUnit === 'anytime' ? '' : 'in the last'}</Text>
      {rule.lookBackUnit !== 'anytime' && (
        <NumberInput
          size="xs"
          w={70}
          min={1}
          allowDecimal={false}
          aria-label={`Look-back of rule ${label}`}
          value={rule.lookBackValue}
          disabled={readOnly}
          onChange={(value) => onChange({ ...rule, lookBackValue: typeof value === 'number' ? value : 1 })}
        />
      )}
      <Select
        size="xs"
        w={100}
        aria-label={`Look-back unit of rule ${label}`}
        data={[...LOOK_BACK_UNITS]}
        value={rule.lookBackUnit}
        allowDeselect={false}
        disabled={readOnly}
        onChange={(unit) => unit && onChange({ ...rule, lookBackUnit: unit as EventRule['lookBackUnit'] })}
      />
    </>
  );
}

export function EventRuleRow({ rule, defs, onChange, onRemove, readOnly, label }: RuleProps<EventRule>) {
  const event = defs.events.find((e) => e.id === rule.event?.id);
  const numericProperties = event?.properties.filter((p) => p.type === 'number').map((p) => p.name) ?? [];
  const whereProperty = event?.properties.find((p) => p.name === rule.whereProperty);
  const parts = { rule, onChange, readOnly, label };
  const addWhere = () => {
    const clause = event && newWhereClause(event);
    if (clause) onChange({ ...rule, ...clause });
  };
  return (
    <RuleShell kind="Behavior" label={label} onRemove={onRemove} readOnly={readOnly}>
      <Select
        size="xs"
        w={150}
        aria-label={`Event of rule ${label}`}
        placeholder={PLACEHOLDERS.event}
        data={defs.events.map((e) => ({ value: e.id, label: e.label }))}
        value={event?.id ?? null}
        searchable
        disabled={readOnly}
        onChange={(id) => {
          const next = defs.events.find((e) => e.id === id);
          const rest = withoutWhere(rule);
          delete rest.property;
          onChange({
            ...rest,
            aggregator: 'COUNT',
            event: next ? { schemaType: 'behavioral-event', id: next.id, label: next.label } : undefined,
          });
        }}
      />
      <EventAggregateInputs {...parts} numericProperties={numericProperties} />
      <LookBackInputs {...parts} />
      {event && !rule.whereProperty && !readOnly && event.properties.length > 0 && (
        <Button size="compact-xs" variant="subtle" leftSection={<IconFilter size={12} />} onClick={addWhere}>
          Where
        </Button>
      )}
      {event && whereProperty && <EventWhereClause {...parts} event={event} whereProperty={whereProperty} />}
    </RuleShell>
  );
}
