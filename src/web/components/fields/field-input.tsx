import { useId, type ComponentType } from 'react';
import type {
  BlocksField as BlocksFieldDef,
  CombinationsField as CombinationsFieldDef,
  FieldType,
  TableField as TableFieldDef,
} from '@shared/schemas/types';
import { BlocksField } from './blocks-field';
import { BooleanField } from './boolean-field';
import { CodeField } from './code-field';
import { CombinationsField } from './combinations-field';
import { CountryField } from './country-field';
import { DateField } from './date-field';
import { DateTimeField } from './datetime-field';
import { useFieldEnvironment } from './field-environment';
import { GeneratableField } from './generatable-field';
import { NameSlugField } from './name-slug-field';
import { NumberField, RangeField } from './number-field';
import {
  AddressDisplay,
  CriteriaDisplay,
  EmailTemplateDisplay,
  FileDisplay,
  RichTextDisplay,
  ServiceConnectionDisplay,
  SocialInterestsDisplay,
} from './read-only-displays';
import { ReferenceField, ReferenceListField } from './reference-field';
import { SchemaSelectorField } from './schema-selector-field';
import { SenderDisplay } from './sender-display';
import { ExperimentDisplay } from './experiment-display';
import { SelectField } from './select-field';
import { TableField } from './table-field';
import { TagsField } from './tags-field';
import { MultilineTextField, TextField } from './text-field';
import type { FieldInputProps, FieldProps } from './types';

function TableWithFields(props: FieldProps<TableFieldDef>) {
  return <TableField {...props} FieldInput={FieldInput} />;
}

function BlocksWithFields(props: FieldProps<BlocksFieldDef>) {
  return <BlocksField {...props} FieldInput={FieldInput} />;
}

function CombinationsWithFields(props: FieldProps<CombinationsFieldDef>) {
  return <CombinationsField {...props} FieldInput={FieldInput} />;
}

/** The built-in component of each field type (spec §5). */
const FIELD_COMPONENTS: Record<FieldType, ComponentType<FieldProps>> = {
  text: TextField as ComponentType<FieldProps>,
  multiline: MultilineTextField as ComponentType<FieldProps>,
  'name-slug': NameSlugField as ComponentType<FieldProps>,
  generatable: GeneratableField as ComponentType<FieldProps>,
  number: NumberField as ComponentType<FieldProps>,
  range: RangeField as ComponentType<FieldProps>,
  boolean: BooleanField as ComponentType<FieldProps>,
  select: SelectField as ComponentType<FieldProps>,
  tags: TagsField as ComponentType<FieldProps>,
  date: DateField as ComponentType<FieldProps>,
  datetime: DateTimeField as ComponentType<FieldProps>,
  reference: ReferenceField as ComponentType<FieldProps>,
  'reference-list': ReferenceListField as ComponentType<FieldProps>,
  table: TableWithFields as ComponentType<FieldProps>,
  blocks: BlocksWithFields as ComponentType<FieldProps>,
  code: CodeField as ComponentType<FieldProps>,
  combinations: CombinationsWithFields as ComponentType<FieldProps>,
  'schema-selector': SchemaSelectorField as ComponentType<FieldProps>,
  country: CountryField as ComponentType<FieldProps>,
  // Full editors of these come through `fieldEditors` (they live elsewhere); without one, displayed.
  file: FileDisplay,
  'rich-text': RichTextDisplay,
  'email-template': EmailTemplateDisplay,
  criteria: CriteriaDisplay,
  address: AddressDisplay,
  'service-connection': ServiceConnectionDisplay,
  'social-interests': SocialInterestsDisplay,
  sender: SenderDisplay,
  experiment: ExperimentDisplay,
};

/** One field of a scope, drawn by its type's component (or a registered replacement editor). */
export function FieldInput({
  field,
  scope,
  onPatch,
  readOnly,
  errors,
  pathPrefix = '',
  compact,
  inputId,
}: FieldInputProps) {
  const { fieldEditors } = useFieldEnvironment();
  const generatedId = useId();
  const Component = fieldEditors[field.type] ?? FIELD_COMPONENTS[field.type];
  const path = pathPrefix + field.key;
  return (
    <Component
      field={field}
      value={scope[field.key]}
      scope={scope}
      onChange={(value) => onPatch({ [field.key]: value })}
      onPatch={onPatch}
      readOnly={readOnly || field.readOnly === true}
      error={errors[path]}
      errors={errors}
      path={path}
      inputId={inputId ?? generatedId}
      compact={compact}
    />
  );
}
