import type { ComponentType } from 'react';
import type { FieldType } from '@shared/schemas/types';
import type { FieldProps } from '../fields/types';
import { FileFieldEditor } from './file-field-editor';
import { RichTextField } from './rich-text-field';

/**
 * The media editors for the item form's `fieldEditors`: uploads with image analysis for file fields,
 * and the rich-text editor with inline images (which loads TipTap lazily).
 */
export const mediaFieldEditors: Partial<Record<FieldType, ComponentType<FieldProps>>> = {
  file: FileFieldEditor,
  'rich-text': RichTextField,
};
