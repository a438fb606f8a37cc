import { memo } from 'react';
import type { FieldDef } from '@shared/schemas/types';
import type { ValidationErrors } from '@shared/validation/validate-item';
import { FieldInput } from '../fields/field-input';
import type { ItemData } from '../fields/types';
import { FieldRow } from './field-row';
import { sameFieldInput, type FieldInputs } from './same-field-input';

interface ItemFieldRowProps {
  field: FieldDef;
  scope: Readonly<ItemData>;
  /** Kept the same across renders (useStableCallback), or every row is drawn again. */
  onPatch: (patch: Readonly<ItemData>) => void;
  readOnly: boolean;
  /** The row's label as in edit mode. */
  editing: boolean;
  errors: ValidationErrors;
  inputId: string;
}

function ItemFieldRowView({ field, scope, onPatch, readOnly, editing, errors, inputId }: ItemFieldRowProps) {
  return (
    <FieldRow field={field} inputId={inputId} editing={editing}>
      <FieldInput
        field={field}
        scope={scope}
        onPatch={onPatch}
        readOnly={readOnly}
        errors={errors}
        inputId={inputId}
      />
    </FieldRow>
  );
}

const inputsOf = (props: ItemFieldRowProps): FieldInputs => ({
  field: props.field,
  scope: props.scope,
  errors: props.errors,
  path: props.field.key,
  rest: [props.onPatch, props.readOnly, props.editing, props.inputId],
});

/** A field of the item in its labelled row, drawn again only when what it shows changed. */
export const ItemFieldRow = memo(ItemFieldRowView, (before, after) =>
  sameFieldInput(inputsOf(before), inputsOf(after)),
);
