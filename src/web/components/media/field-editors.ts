import type { ComponentType } from 'react';
import type { FieldType } from '@shared/schemas/types';
import type { FieldProps } from '../fields/types';
import { FileField } from './file-field';
import { RichTextField } from './rich-text-field';

/**
 * The media editors for the item form's `fieldEditors`: uploads with image analysis for file fields,
 * and the rich-text editor with inline images. Both load their code lazily, so a list screen
 * that can open a quick view carries neither TipTap nor the dropzone.
 */
export const mediaFieldEditors: Partial<Record<FieldType, ComponentType<FieldProps>>> = {
  file: FileField,
  'rich-text': RichTextField,
};
