import { RichTextEditor } from '@mantine/tiptap';
import { IconLibraryPhoto } from '@tabler/icons-react';

/** The rich-text editor's toolbar; the table controls show while the cursor is in a table. */
export function RichTextToolbar({ inTable, onPickImage }: { inTable: boolean; onPickImage: () => void }) {
  return (
    <RichTextEditor.Toolbar sticky stickyOffset={0}>
      <RichTextEditor.ControlsGroup>
        <RichTextEditor.Bold />
        <RichTextEditor.Italic />
        <RichTextEditor.Underline />
        <RichTextEditor.Strikethrough />
        <RichTextEditor.Code />
        <RichTextEditor.ClearFormatting />
      </RichTextEditor.ControlsGroup>
      <RichTextEditor.ControlsGroup>
        <RichTextEditor.H1 />
        <RichTextEditor.H2 />
        <RichTextEditor.H3 />
        <RichTextEditor.H4 />
      </RichTextEditor.ControlsGroup>
      <RichTextEditor.ControlsGroup>
        <RichTextEditor.BulletList />
        <RichTextEditor.OrderedList />
        <RichTextEditor.Blockquote />
        <RichTextEditor.CodeBlock />
        <RichTextEditor.Hr />
      </RichTextEditor.ControlsGroup>
      <RichTextEditor.ControlsGroup>
        <RichTextEditor.Link />
        <RichTextEditor.Unlink />
      </RichTextEditor.ControlsGroup>
      <RichTextEditor.ControlsGroup>
        <RichTextEditor.Control
          onClick={onPickImage}
          aria-label="Insert image"
          title="Insert image from image sets"
        >
          <IconLibraryPhoto size={16} stroke={1.5} />
        </RichTextEditor.Control>
        <RichTextEditor.ImageUpload aria-label="Upload image" title="Upload an image in place" />
        <RichTextEditor.TableInsert />
      </RichTextEditor.ControlsGroup>
      {inTable && (
        <RichTextEditor.ControlsGroup>
          <RichTextEditor.TableRowAfter />
          <RichTextEditor.TableColumnAfter />
          <RichTextEditor.TableRowDelete />
          <RichTextEditor.TableColumnDelete />
          <RichTextEditor.TableToggleHeaderRow />
          <RichTextEditor.TableDelete />
        </RichTextEditor.ControlsGroup>
      )}
      <RichTextEditor.ControlsGroup ml="auto">
        <RichTextEditor.Undo />
        <RichTextEditor.Redo />
      </RichTextEditor.ControlsGroup>
    </RichTextEditor.Toolbar>
  );
}
