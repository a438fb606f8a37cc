import { focusFormPath, formElementOf } from './focus-form-path';

/** The form's markup as the item form draws it: rows by field key, blocks fields with their cards. */
function form() {
  document.body.innerHTML = `
    <form id="form">
      <div data-field="title"><label>Title</label><input id="title"></div>
      <div data-field="sections">
        <div data-blocks="sections">
          <div data-block="0" tabindex="-1" id="b0">
            <div data-field="title"><input id="b0-title"></div>
            <div data-field="items"><div data-blocks="sections.0.items">
              <div data-block="1" tabindex="-1" id="b0-n1"><div data-field="text"><textarea id="b0-n1-text"></textarea></div></div>
            </div></div>
          </div>
          <div data-block="1" tabindex="-1" id="b1">
            <div data-field="text"><div contenteditable="true" id="b1-text"></div></div>
          </div>
        </div>
      </div>
      <div data-field="notes"><span>Read only</span></div>
    </form>`;
  return document.getElementById('form')!;
}

describe('focusFormPath', () => {
  it('finds top-level fields, blocks and block fields at any depth, never a nested namesake', () => {
    const root = form();
    expect(formElementOf(root, 'title')?.querySelector('input')?.id).toBe('title');
    expect(formElementOf(root, 'sections.1')?.id).toBe('b1');
    expect(formElementOf(root, 'sections.0.title')?.querySelector('input')?.id).toBe('b0-title');
    expect(formElementOf(root, 'sections.0.items.1')?.id).toBe('b0-n1');
    // Block 1 of sections is not the nested block 1 that comes first in the page.
    expect(formElementOf(root, 'sections.1.text')?.querySelector('[contenteditable]')?.id).toBe('b1-text');
    expect(formElementOf(root, 'nothing')).toBeNull();
  });

  it('focuses the input, the block card, or a read-only row', () => {
    const root = form();
    expect(focusFormPath(root, 'sections.1.text')).toBe(true);
    expect(document.activeElement?.id).toBe('b1-text');
    focusFormPath(root, 'sections.0.items.1.text');
    expect(document.activeElement?.id).toBe('b0-n1-text');
    focusFormPath(root, 'sections.1');
    expect(document.activeElement?.id).toBe('b1');
    focusFormPath(root, 'notes');
    expect(document.activeElement?.getAttribute('data-field')).toBe('notes');
    expect(focusFormPath(root, 'gone.2')).toBe(false);
  });
});
