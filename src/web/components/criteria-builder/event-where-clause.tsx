import { ActionIcon, Group, Select, Text } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import type { CriteriaDefinitions } from '@shared/api/customers';
import { NEW_WHERE_CLAUSE } from '@shared/criteria/defaults';
import { operatorsFor } from '@shared/criteria/operators';
import type { EventRule } from '@shared/criteria/tree';
import { defaultValue, ValueInput } from './value-input';

type EventDefinition = CriteriaDefinitions['events'][number];
type EventProperty = EventDefinition['properties'][number];
type WhereClause = Pick<EventRule, 'whereProperty' | 'whereOperator' | 'whereValue'>;

export const withoutWhere = ({ whereProperty: _p, whereOperator: _o, whereValue: _v, ...rest }: EventRule) =>
  rest;

/** The clause Where adds: on the first numeric property (at least 20), else on the first property. */
export function newWhereClause(event: EventDefinition): WhereClause | null {
  const property = event.properties.find((p) => p.type === 'number') ?? event.properties[0];
  if (!property) return null;
  if (property.type === 'number') return { whereProperty: property.name, ...NEW_WHERE_CLAUSE };
  return whereClauseOn(property);
}

/** A clause on `property` with its first operator and that operator's default value. */
function whereClauseOn(property: EventProperty): WhereClause {
  const operator = operatorsFor(property.type)[0];
  return {
    whereProperty: property.name,
    whereOperator: operator,
    whereValue: defaultValue(property.type, operator, []),
  };
}

/** A behavior rule's "where" line: a condition on one property of the event. */
export function EventWhereClause({
  rule,
  event,
  whereProperty,
  onChange,
  readOnly,
  label,
}: {
  rule: EventRule;
  event: EventDefinition;
  whereProperty: EventProperty;
  onChange: (rule: EventRule) => void;
  readOnly: boolean;
  label: string;
}) {
  return (
    <Group gap={6} w="100%" pl={62} data-where>
      <Text size="xs">where</Text>
      <Select
        size="xs"
        w={120}
        aria-label={`Where property of rule ${label}`}
        data={event.properties.map((p) => p.name)}
        value={whereProperty.name}
        allowDeselect={false}
        disabled={readOnly}
        onChange={(name) => {
          const property = event.properties.find((p) => p.name === name);
          if (property) onChange({ ...rule, ...whereClauseOn(property) });
        }}
      />
      <Select
        size="xs"
        w={140}
        aria-label={`Where operator of rule ${label}`}
        data={[...operatorsFor(whereProperty.type)]}
        value={rule.whereOperator ?? null}
        allowDeselect={false}
        disabled={readOnly}
        onChange={(operator) =>
          operator &&
          onChange({
            ...rule,
            whereOperator: operator as EventRule['whereOperator'],
            whereValue: defaultValue(whereProperty.type, operator, []),
          })
        }
      />
      {rule.whereOperator && (
        <ValueInput
          type={whereProperty.type}
          operator={rule.whereOperator}
          options={[]}
          value={rule.whereValue}
          onChange={(whereValue) => onChange({ ...rule, whereValue })}
          readOnly={readOnly}
          label={`Where value of rule ${label}`}
        />
      )}
      {!readOnly && (
        <ActionIcon
          variant="subtle"
          color="gray"
          size="sm"
          aria-label={`Remove where of rule ${label}`}
          onClick={() => onChange(withoutWhere(rule) as EventRule)}
        >
          <IconX size={12} />
        </ActionIcon>
      )}
    </Group>
  );
}
