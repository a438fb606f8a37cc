import type { ComponentType } from 'react';
import type { FieldType } from '@shared/schemas/types';
import type { FieldProps } from '@web/components/fields/types';
import { mediaFieldEditors } from '@web/components/media/field-editors';
import { AddressField } from '@web/components/places/address-field';
import { CriteriaField } from '@web/components/criteria-builder/criteria-field';
import { EmailTemplateField } from '@web/components/email-editor/email-template-field';
import { SenderField } from '@web/components/campaigns/sender-field';
import { CodeOrJourneyField } from '@web/components/journeys/definition-field';
import { ExperimentField } from '@web/components/campaigns/experiment-field';
import { ServiceConnectionField } from '@web/components/services/service-connection-field';
import { SocialInterestsField } from '@web/components/services/social-interests-field';

/**
 * Full editors that replace the item form's built-in display of a field type on every item screen
 * (single item, quick view, new item). The media screens register the file, image-set and rich-text
 * editors here (from src/web/components/media/), the places screens the address editor;
 * the email template editor comes from src/web/components/email-editor/, the campaign's sender
 * chooser and A/B test editor from src/web/components/campaigns/, the journey canvas (for a journey's
 * definition, a code field) from src/web/components/journeys/.
 */
export const ITEM_FIELD_EDITORS: Partial<Record<FieldType, ComponentType<FieldProps>>> = {
  ...mediaFieldEditors,
  address: AddressField,
  code: CodeOrJourneyField,
  criteria: CriteriaField,
  'email-template': EmailTemplateField,
  experiment: ExperimentField,
  sender: SenderField,
  'service-connection': ServiceConnectionField,
  'social-interests': SocialInterestsField,
};
