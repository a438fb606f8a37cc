import type { ComponentType } from 'react';
import type { ContentModel } from '@shared/model/registry';
import type { FieldDef, Reference, SchemaType } from '@shared/schemas/types';
import type { ValidationErrors } from '@shared/validation/validate-item';

/** An item's data as the form holds it: field key → value, plus `{key}_tz` companions. */
export type ItemData = Record<string, unknown>;

/** Finds items a reference field may point to (the item screens wire it to the API). */
export type ReferenceSearch = (schemaTypes: readonly string[], query: string) => Promise<Reference[]>;

/** What every field component receives. */
export interface FieldProps<F extends FieldDef = FieldDef> {
  field: F;
  value: unknown;
  /** The object the field lives in: the item's data, a table row, a block or a combination's overrides. */
  scope: Readonly<ItemData>;
  onChange: (value: unknown) => void;
  /** Writes several keys of the same scope at once (a date-time value with its `{key}_tz` companion). */
  onPatch: (patch: Readonly<ItemData>) => void;
  readOnly: boolean;
  /** This field's own message, if shown. */
  error?: string;
  /** Every shown message of the form, keyed by path, for fields with nested parts (tables, combinations). */
  errors: ValidationErrors;
  /** This field's path in the errors: 'key', 'table.0.column', 'blocks.0.field', … */
  path: string;
  /** Id of the field's main input, for its label. */
  inputId: string;
  /** True inside a table cell or a compact override: no descriptions, smaller inputs. */
  compact?: boolean;
}

export interface FieldInputProps {
  field: FieldDef;
  scope: Readonly<ItemData>;
  onPatch: (patch: Readonly<ItemData>) => void;
  readOnly: boolean;
  errors: ValidationErrors;
  /** Path of the scope in the errors: '' for the item, 'table.0.' for a row. */
  pathPrefix?: string;
  compact?: boolean;
  inputId?: string;
}

/**
 * Fields that hold fields (tables, blocks, combinations) draw them with the `FieldInput` they are handed, so they
 * need not import the component that dispatches on field type, which imports them.
 */
export interface NestedFieldProps {
  FieldInput: ComponentType<FieldInputProps>;
}

/** Settings that come from outside the form: the workspace and the API. */
export interface FieldEnvironment {
  schema: SchemaType;
  /** The workspace's content model: the schemas references and selectors name. */
  model: ContentModel;
  /** Time zones to offer in date-time fields: the workspace's basics.timezones or the defaults. */
  timezones: readonly string[];
  referenceSearch?: ReferenceSearch;
  /** URL of a reference's thumbnail image, from its thumbId. */
  thumbnailUrl?: (thumbId: string) => string;
  /** The schema selector's 'Generate Types': resolves the type definition text, rejects with the detail. */
  generateTypes?: (schemaName: string) => Promise<string>;
  /** Schemas a schema selector offers. */
  schemaOptions: readonly { value: string; label: string }[];
  /** Keys whose value the form filled with a default when it opened (code fields: 'Loaded default code'). */
  loadedDefaults: ReadonlySet<string>;
  /** Editors that replace the built-in component of a field type (full editors living elsewhere). */
  fieldEditors: Partial<Record<FieldDef['type'], ComponentType<FieldProps>>>;
  /** In little room (a quick view, compare mode): read-only values that run long, like blocks, are summed up. */
  compactDisplay?: boolean;
}
