import fc from 'fast-check';
import { applyCodeEdit, checkCodeBlocks, codeBody, composeCode, loadCode } from './code-blocks';

const def = { beginBlock: 'async function test(api) {\n', endBlock: '\n}\n', defaultCode: '  return true;' };

describe('checkCodeBlocks', () => {
  it('accepts code whose fixed blocks are intact, whatever the body', () => {
    fc.assert(
      fc.property(fc.string(), (body) => {
        expect(checkCodeBlocks(def, composeCode(def, body))).toBeUndefined();
        expect(codeBody(def, composeCode(def, body))).toBe(body);
      }),
    );
  });

  it("refuses an edited beginning with 'Beginning block cannot be changed'", () => {
    expect(checkCodeBlocks(def, 'function test(api) {\n  return 1;\n}\n')).toBe(
      'Beginning block cannot be changed',
    );
    expect(checkCodeBlocks(def, '')).toBe('Beginning block cannot be changed');
  });

  it("refuses an edited ending with 'Ending block cannot be changed'", () => {
    expect(checkCodeBlocks(def, 'async function test(api) {\n  return 1;\n')).toBe(
      'Ending block cannot be changed',
    );
    expect(checkCodeBlocks(def, 'async function test(api) {\n  return 1;\n};\n')).toBe(
      'Ending block cannot be changed',
    );
  });

  it('does not count one overlapping text as both blocks', () => {
    const overlapping = { beginBlock: 'ab', endBlock: 'bc', defaultCode: '' };
    expect(checkCodeBlocks(overlapping, 'abc')).toBe('Ending block cannot be changed');
    expect(checkCodeBlocks(overlapping, 'abbc')).toBeUndefined();
  });

  it('refuses any edit that touches a character of a block', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.nat(),
        fc.string({ minLength: 1, maxLength: 1 }),
        (body, at, replacement) => {
          const code = composeCode(def, body);
          const blockPositions = [
            ...Array.from(def.beginBlock, (_, i) => i),
            ...Array.from(def.endBlock, (_, i) => code.length - def.endBlock.length + i),
          ];
          const position = blockPositions[at % blockPositions.length];
          fc.pre(code[position] !== replacement);
          const edited = code.slice(0, position) + replacement + code.slice(position + 1);
          expect(checkCodeBlocks(def, edited)).toBeDefined();
        },
      ),
    );
  });
});

describe('applyCodeEdit and loadCode', () => {
  const good = composeCode(def, '  return 1;');

  it('keeps an edit inside the body', () => {
    const next = composeCode(def, '  return 2;');
    expect(applyCodeEdit(def, good, next)).toEqual({ code: next });
  });

  it('restores the last good code with the message when a block is edited', () => {
    expect(applyCodeEdit(def, good, good.replace('async ', ''))).toEqual({
      code: good,
      message: 'Beginning block cannot be changed',
    });
    expect(applyCodeEdit(def, good, good.slice(0, -2))).toEqual({
      code: good,
      message: 'Ending block cannot be changed',
    });
  });

  it("loads the default code with 'Loaded default code' when the code is empty", () => {
    const loaded = { code: composeCode(def, def.defaultCode), message: 'Loaded default code' };
    expect(applyCodeEdit(def, good, '')).toEqual(loaded);
    expect(loadCode(def, '')).toEqual(loaded);
    expect(loadCode(def, undefined)).toEqual(loaded);
    expect(loadCode(def, good)).toEqual({ code: good });
  });
});
