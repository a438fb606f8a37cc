/**
 * The rich-text editor (TipTap through @mantine/tiptap). Loaded lazily by RichTextField, so TipTap and
 * ProseMirror never land in a screen's bundle until a rich-text field is edited (DESIGN §7).
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { Stack, Text } from '@mantine/core';
import { Link, RichTextEditor, getUploadImageExtension } from '@mantine/tiptap';
import '@mantine/tiptap/styles.css';
import { useQueryClient } from '@tanstack/react-query';
import Image from '@tiptap/extension-image';
import { TableKit } from '@tiptap/extension-table';
import { useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { errorMessage } from '@web/lib/api-client';
import type { FieldProps } from '../fields/types';
import { storedRichTextHtml, type InlineImage } from './inline-image';
import { ImageSetPicker } from './image-set-picker';
import { useMediaWorkspace, type MediaWorkspace } from './media-workspace';
import classes from './rich-text-editor.module.css';
import { RichTextToolbar } from './rich-text-toolbar';
import { uploadInlineImage } from './upload-inline-image';
import { UPLOAD_MESSAGES } from './upload-messages';
import { showToast } from '@web/lib/toast';

/** The image node with the reference it carries as data-ref-* attributes (kept by the server's sanitiser). */
const ReferencedImage = Image.extend({
  addAttributes() {
    return {
      ...this.parent?.(),
      refId: {
        default: null,
        parseHTML: (element: HTMLElement) => element.getAttribute('data-ref-id'),
        renderHTML: (attributes: Record<string, unknown>) =>
          attributes.refId ? { 'data-ref-id': attributes.refId } : {},
      },
      refSchemaType: {
        default: null,
        parseHTML: (element: HTMLElement) => element.getAttribute('data-ref-schema-type'),
        renderHTML: (attributes: Record<string, unknown>) =>
          attributes.refSchemaType ? { 'data-ref-schema-type': attributes.refSchemaType } : {},
      },
    };
  },
});

const asHtml = (value: unknown) => (typeof value === 'string' ? value : '');

/** Inserts an inline image at the cursor, then puts the cursor in the paragraph after it. */
function insertInlineImage(editor: Editor, image: InlineImage) {
  editor
    .chain()
    .focus()
    .insertContent({
      type: 'image',
      attrs: {
        src: image.src,
        alt: image.alt,
        title: image.title ?? null,
        refId: image.refId ?? null,
        refSchemaType: image.refSchemaType ?? null,
      },
    })
    .run();
  // The new image is left selected, and typing would replace it: go on writing below it instead.
  const after = editor.state.selection.to;
  const next = editor.state.doc.resolve(after).nodeAfter;
  if (next?.isTextblock)
    editor
      .chain()
      .setTextSelection(after + 1)
      .run();
  else
    editor
      .chain()
      .insertContentAt(after, { type: 'paragraph' })
      .setTextSelection(after + 1)
      .run();
}

/** The editor's extensions; images dropped, pasted or picked with the upload button upload in place. */
function useRichTextExtensions(workspace: MediaWorkspace) {
  const client = useQueryClient();
  const workspaceRef = useRef(workspace);
  useEffect(() => {
    workspaceRef.current = workspace;
  });
  return useMemo(
    () => [
      StarterKit.configure({ link: false, heading: { levels: [1, 2, 3, 4] } }),
      Link.configure({
        openOnClick: false,
        defaultProtocol: 'https',
        HTMLAttributes: { rel: 'noopener noreferrer', target: '_blank' },
      }),
      TableKit.configure({ table: { resizable: false } }),
      getUploadImageExtension(ReferencedImage, {
        onImageUpload: async (file: File) => {
          const image = await uploadInlineImage(client, workspaceRef.current, file);
          return image as unknown as { src: string; alt?: string; title?: string };
        },
        onImageUploadError: (_file: File, e: unknown) =>
          showToast({ color: 'red', message: UPLOAD_MESSAGES.failed(errorMessage(e)) }),
      }),
    ],
    [client],
  );
}

/** A TipTap editor bound to the field's HTML value: edits go out as stored HTML, outside values come in. */
function useRichTextFieldEditor({
  field,
  value,
  onChange,
  error,
  inputId,
  workspace,
}: FieldProps & { workspace: MediaWorkspace }) {
  const html = asHtml(value);
  // What the editor last reported, so a new value from outside (reset, reload) is told from an echo.
  const lastEmitted = useRef(html);
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  });

  const extensions = useRichTextExtensions(workspace);
  const editor = useEditor({
    extensions,
    content: html,
    shouldRerenderOnTransaction: false,
    editorProps: {
      attributes: {
        id: inputId,
        'aria-label': field.label,
        'aria-multiline': 'true',
        role: 'textbox',
        ...(error ? { 'aria-invalid': 'true' } : {}),
      },
    },
    onUpdate: ({ editor: current }) => {
      const next = storedRichTextHtml(current.getHTML(), current.isEmpty);
      if (next === lastEmitted.current) return;
      lastEmitted.current = next;
      onChangeRef.current(next);
    },
  });

  // A value from outside (Reset, a reload) replaces the document.
  useEffect(() => {
    if (!editor || editor.isDestroyed || html === lastEmitted.current) return;
    lastEmitted.current = html;
    editor.commands.setContent(html, { emitUpdate: false });
  }, [editor, html]);

  return editor;
}

export default function RichTextFieldEditor(props: FieldProps) {
  const { field, error } = props;
  const workspace = useMediaWorkspace();
  const [pickerOpen, setPickerOpen] = useState(false);
  const editor = useRichTextFieldEditor({ ...props, workspace });
  const inTable = useEditorState({
    editor,
    selector: ({ editor: current }) => current?.isActive('table') ?? false,
  });

  return (
    <Stack gap={4}>
      <RichTextEditor
        editor={editor}
        className={classes.editor}
        data-invalid={error ? true : undefined}
        data-testid={`rich-text-${field.key}`}
      >
        <RichTextToolbar inTable={inTable} onPickImage={() => setPickerOpen(true)} />
        <RichTextEditor.Content />
      </RichTextEditor>
      {error && (
        <Text size="xs" c="red">
          {error}
        </Text>
      )}
      <ImageSetPicker
        opened={pickerOpen}
        onClose={() => setPickerOpen(false)}
        onInsert={(image) => editor && insertInlineImage(editor, image)}
        workspace={workspace}
      />
    </Stack>
  );
}
