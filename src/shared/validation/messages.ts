/** Spec §5 and §8 messages, word for word. */
export const REQUIRED_MESSAGE = '%l is required';
export const SAVE_BLOCKED_MESSAGE = 'Please fix validation errors before saving';
export const INCOMPLETE_ITEM_MESSAGE =
  'This item is incomplete. You may save it as is. Finish editing before publishing.';
export const BEGIN_BLOCK_CHANGED_MESSAGE = 'Beginning block cannot be changed';
export const END_BLOCK_CHANGED_MESSAGE = 'Ending block cannot be changed';
export const DEFAULT_CODE_LOADED_MESSAGE = 'Loaded default code';
export const OLD_VALUE_PREFIX = '--Old Value--';
export const UNNAMED_ITEM = '-- UNNAMED ITEM --';
export const CANCEL_CONFIRM_TITLE = 'You will lose the changes';
export const CANCEL_CONFIRM_MESSAGE = 'Are you sure?';

/** Messages of rules the spec names without wording (decided here). */
export const COMBINATION_NAME_REQUIRED_MESSAGE = 'Name is required';
export const COMBINATION_NAME_DUPLICATE_MESSAGE = 'Name must be unique';
export const COMBINATION_OVERRIDE_REQUIRED_MESSAGE = 'At least one Override is required';
export const MIN_MESSAGE = '%l must be at least {min}';
export const MAX_MESSAGE = '%l must be at most {max}';
export const MAX_ROWS_MESSAGE = '%l allows at most {maxRows} rows';
export const MAX_BLOCKS_MESSAGE = '%l allows at most {maxBlocks} blocks';
