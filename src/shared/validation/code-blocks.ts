import type { CodeField } from '../schemas/types';
import {
  BEGIN_BLOCK_CHANGED_MESSAGE,
  DEFAULT_CODE_LOADED_MESSAGE,
  END_BLOCK_CHANGED_MESSAGE,
} from './messages';

type FixedBlocks = Pick<CodeField, 'beginBlock' | 'endBlock'>;
type CodeBlocks = Pick<CodeField, 'beginBlock' | 'endBlock' | 'defaultCode'>;

/**
 * The code-block guard (spec §5): the message for a code text whose fixed beginning or ending block
 * was edited, or undefined when both are intact.
 */
export function checkCodeBlocks(def: FixedBlocks, code: string): string | undefined {
  if (!code.startsWith(def.beginBlock)) return BEGIN_BLOCK_CHANGED_MESSAGE;
  if (code.length < def.beginBlock.length + def.endBlock.length || !code.endsWith(def.endBlock)) {
    return END_BLOCK_CHANGED_MESSAGE;
  }
  return undefined;
}

/** The full code for an editable body: beginBlock + body + endBlock. */
export const composeCode = (def: FixedBlocks, body: string) => def.beginBlock + body + def.endBlock;

/** The editable part between the fixed blocks of intact code. */
export const codeBody = (def: FixedBlocks, code: string) =>
  code.slice(def.beginBlock.length, code.length - def.endBlock.length);

export interface CodeEdit {
  code: string;
  message?: string;
}

/**
 * What the editor keeps after an edit: the new code when the blocks are intact, otherwise the last good
 * code with the guard's message. Empty code loads the default with 'Loaded default code'.
 */
export function applyCodeEdit(def: CodeBlocks, lastGoodCode: string, nextCode: string): CodeEdit {
  if (nextCode === '') return loadCode(def, nextCode);
  const message = checkCodeBlocks(def, nextCode);
  return message ? { code: lastGoodCode, message } : { code: nextCode };
}

/** The code an editor opens with: the stored code, or the default with 'Loaded default code' when empty. */
export function loadCode(def: CodeBlocks, stored: string | null | undefined): CodeEdit {
  if (stored) return { code: stored };
  return { code: composeCode(def, def.defaultCode), message: DEFAULT_CODE_LOADED_MESSAGE };
}
