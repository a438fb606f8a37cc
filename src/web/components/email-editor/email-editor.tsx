import { useEffect, useRef, useState, type MouseEvent } from 'react';
import { ActionIcon, Alert, Box, Button, Group, Menu, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import {
  IconArrowBackUp,
  IconArrowForwardUp,
  IconBraces,
  IconLayoutGridAdd,
  IconPhoto,
  IconRestore,
} from '@tabler/icons-react';
import grapesjs, { type AssetsCustomData, type Editor } from 'grapesjs';
import 'grapesjs/dist/css/grapes.min.css';
import './editor-icons.css';
import newsletterModule from 'grapesjs-preset-newsletter';
import { mergeTagText } from '@shared/email/merge-tags';
import { formatDateTime } from '@web/lib/dates';
import type { FieldProps } from '../fields/types';
import { ImageSetPicker } from '../media/image-set-picker';
import { useMediaWorkspace } from '../media/media-workspace';
import type { InlineImage } from '../media/inline-image';
import { useMergeTags } from './api/list-merge-tags';
import { DEVICE_WIDTHS, DeviceToggle, type PreviewDevice } from './email-preview';
import { differsFrom, readDraft, writeDraft, type EmailDraft } from './email-draft';
import classes from './email-editor.module.css';

type Template = Record<string, unknown>;

/** The preset ships as UMD: bundlers hand over either the plugin or `{ default: plugin }`. */
const newsletter =
  (newsletterModule as unknown as { default?: typeof newsletterModule }).default ?? newsletterModule;

const DEVICES = [
  { id: 'desktop', name: 'Desktop', width: '' },
  { id: 'phone', name: 'Phone', width: `${DEVICE_WIDTHS.phone}px`, widthMedia: '480px' },
];

const asTemplate = (value: unknown): Template =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Template) : {};

const hasItems = (value: unknown) => Array.isArray(value) && value.length > 0;
const asString = (value: unknown) => (typeof value === 'string' ? value : '');

/** Loads a stored template into the editor: GrapesJS's own project data when kept, else the HTML and CSS. */
function loadTemplate(editor: Editor, template: Template) {
  const components = template['gjs-nl-components'];
  const styles = template['gjs-nl-styles'];
  editor.setComponents(hasItems(components) ? (components as never) : asString(template['gjs-nl-html']));
  editor.setStyle(hasItems(styles) ? (styles as never) : asString(template['gjs-nl-css']));
}

interface PanelButtons {
  filter(test: (button: { get(key: string): unknown }) => boolean): unknown[];
  remove(buttons: unknown[]): void;
}

/** The preset's own device buttons name devices we do not have; our Desktop/Phone control replaces them. */
function removePresetDeviceButtons(editor: Editor) {
  editor.Panels.getPanels().forEach((panel: unknown) => {
    const buttons = (panel as unknown as { buttons?: PanelButtons }).buttons;
    buttons?.remove(buttons.filter((button) => String(button.get('command')).startsWith('set-device')));
  });
}

/** The spec's content keys (§3) as the editor holds them now; the server re-sanitises and rebuilds the markup. */
function readTemplate(editor: Editor): Template {
  const plain = <T,>(value: T): unknown => JSON.parse(JSON.stringify(value));
  return {
    'gjs-nl-html': editor.getHtml(),
    'gjs-nl-css': editor.getCss() ?? '',
    'gjs-nl-components': plain(editor.getComponents()),
    'gjs-nl-styles': plain(editor.getStyle()),
    'gjs-nl-assets': editor.AssetManager.getAll().map((asset: { getSrc(): string }) => ({
      type: 'image',
      src: asset.getSrc(),
    })),
    combinedMarkup: String(editor.runCommand('gjs-get-inlined-html') ?? ''),
  };
}

/**
 * GrapesJS leaves its canvas frame unnamed and its scrolling side panel out of the tab order; both
 * fail WCAG (4.1.2 frame title, 2.1.1 keyboard access to a scrollable region).
 */
function nameEditorRegions(container: HTMLElement) {
  container.querySelector('iframe.gjs-frame')?.setAttribute('title', 'Email template canvas');
  const panel = container.querySelector('.gjs-pn-views-container');
  panel?.setAttribute('tabindex', '0');
  panel?.setAttribute('role', 'region');
  panel?.setAttribute('aria-label', 'Blocks, styles and layers');
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!);

/**
 * Inserts a merge tag at the caret of the text being edited, else at the end of the selected text
 * block; says where it went, or that there was no text to take it.
 */
function insertMergeTag(editor: Editor, tag: string): 'caret' | 'block' | 'no-text' {
  const rte = editor.RichTextEditor.globalRte;
  if (editor.getEditing() && rte) {
    rte.insertHTML(escapeHtml(tag));
    // GrapesJS leaves the tag selected, so the next key would replace it: typing goes on after it.
    editor.Canvas.getDocument()?.getSelection()?.collapseToEnd();
    editor.trigger('update');
    return 'caret';
  }
  const selected = editor.getSelected();
  if (!selected || !selected.is('text')) return 'no-text';
  selected.components().add({ type: 'textnode', content: tag });
  return 'block';
}

/**
 * Adds a block into the selected cell, else at the end, and activates it as a drop does: a text block
 * starts editing, an image block asks for its image.
 */
function addBlock(editor: Editor, id: string) {
  const block = editor.Blocks.get(id);
  if (!block) return;
  const target = editor.getSelected()?.is('cell') ? editor.getSelected()! : editor.getWrapper()!;
  const [added] = [target.append(block.get('content') as never)].flat();
  if (added) editor.select(added, { activate: Boolean(block.get('activate')) });
}

/**
 * The preset's button is a bare link styled by a class its own sample template defines; ours carries
 * its look inline, as mail clients need, so it is a button wherever it lands.
 */
const BUTTON_BLOCK = {
  type: 'link',
  content: 'Button',
  attributes: { href: '#' },
  style: {
    display: 'inline-block',
    padding: '12px 24px',
    'background-color': '#228be6',
    color: '#ffffff',
    'font-family': 'Helvetica, Arial, sans-serif',
    'font-size': '16px',
    'font-weight': 'bold',
    'line-height': '1.2',
    'text-decoration': 'none',
    'border-radius': '4px',
  },
};

/** Puts a picked image where the asset manager was asked for it, else into the selected cell or at the end. */
function insertImage(editor: Editor, image: InlineImage, request: AssetsCustomData | null) {
  const [asset] = [editor.AssetManager.add({ type: 'image', src: image.src, name: image.alt })].flat();
  const target = request?.options?.target;
  if (request && target) {
    request.select(asset, true);
    target.addAttributes?.({ alt: image.alt });
  } else {
    // Opened from the Images button: the image goes into the selected cell, else at the end.
    const selected = editor.getSelected();
    const parent = selected?.is('cell') ? selected : editor.getWrapper();
    parent?.append({ type: 'image', src: image.src, attributes: { alt: image.alt } });
  }
  request?.close();
}

/**
 * One GrapesJS editor in the returned container, started with `initialTemplate` and started anew when
 * the draft key changes. Edits reach `onChange` (and the browser draft) a quarter second after they stop.
 */
function useGrapesEditor(
  draftKey: string | null,
  initialTemplate: Template,
  onChange: (value: unknown) => void,
) {
  const containerRef = useRef<HTMLDivElement>(null);
  const editorRef = useRef<Editor | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const initialValue = useRef(initialTemplate);
  const [history, setHistory] = useState({ canUndo: false, canRedo: false });
  const [assetRequest, setAssetRequest] = useState<AssetsCustomData | null>(null);

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const editor = grapesjs.init({
      container,
      height: '640px',
      width: 'auto',
      fromElement: false,
      storageManager: false,
      // Our image picker answers `asset:custom`; open and close keep GrapesJS's own empty modal shut.
      assetManager: {
        custom: { open() {}, close() {} },
        assets: (initialValue.current['gjs-nl-assets'] as never) ?? [],
      },
      // Its icons come from editor-icons.css, not from a CDN; and it reports nothing to GrapesJS's makers.
      cssIcons: '',
      telemetry: false,
      deviceManager: { devices: DEVICES },
      plugins: [(ed) => newsletter(ed, { showBlocksOnLoad: true })],
    });
    editorRef.current = editor;
    editor.on('load', () => nameEditorRegions(container));
    removePresetDeviceButtons(editor);
    editor.Blocks.get('button')?.set('content', BUTTON_BLOCK);
    loadTemplate(editor, initialValue.current);
    editor.UndoManager.clear();

    let timer: ReturnType<typeof setTimeout> | undefined;
    const sync = () => {
      timer = undefined;
      const template = readTemplate(editor);
      onChangeRef.current(template);
      if (draftKey) writeDraft(draftKey, template);
    };
    const handleUpdate = () => {
      setHistory({ canUndo: editor.UndoManager.hasUndo(), canRedo: editor.UndoManager.hasRedo() });
      clearTimeout(timer);
      timer = setTimeout(sync, 250);
    };
    // An edit still waiting for its quarter second reaches the form before a press outside the editor
    // (Save, most of all), so the edit saved is the last one made.
    const flushOutside = (event: Event) => {
      if (timer === undefined || container.contains(event.target as Node)) return;
      clearTimeout(timer);
      sync();
    };
    document.addEventListener('pointerdown', flushOutside, true);
    document.addEventListener('keydown', flushOutside, true);
    editor.on('update', handleUpdate);
    editor.on('asset:custom', (request: AssetsCustomData) =>
      setAssetRequest(request.open ? { ...request } : null),
    );
    return () => {
      clearTimeout(timer);
      document.removeEventListener('pointerdown', flushOutside, true);
      document.removeEventListener('keydown', flushOutside, true);
      editor.destroy();
      editorRef.current = null;
    };
  }, [draftKey]);

  const withEditor = (run: (editor: Editor) => void) => {
    const editor = editorRef.current;
    if (editor) run(editor);
  };

  return { containerRef, editorRef, withEditor, history, assetRequest, setAssetRequest };
}

function DraftOffer({
  draft,
  onRestore,
  onDiscard,
}: {
  draft: EmailDraft;
  onRestore: () => void;
  onDiscard: () => void;
}) {
  return (
    <Alert color="blue" variant="light" icon={<IconRestore size={18} />} data-testid="email-draft-offer">
      <Group justify="space-between" gap="sm">
        <Text size="sm">
          An unsaved draft of this email from {formatDateTime(draft.savedAt)} was kept in this browser.
        </Text>
        <Group gap="xs">
          <Button size="xs" onClick={onRestore}>
            Restore draft
          </Button>
          <Button size="xs" variant="default" onClick={onDiscard}>
            Discard
          </Button>
        </Group>
      </Group>
    </Alert>
  );
}

const BLOCKS = [
  { id: 'text', label: 'Text' },
  { id: 'image', label: 'Image' },
  { id: 'button', label: 'Button' },
  { id: 'sect100', label: 'Section, 1 column' },
  { id: 'sect50', label: 'Section, 2 columns' },
  { id: 'divider', label: 'Divider' },
];

/** Preview size, undo and redo. */
function ViewControls({
  device,
  onDeviceChange,
  history,
  onUndo,
  onRedo,
}: {
  device: PreviewDevice;
  onDeviceChange: (device: PreviewDevice) => void;
  history: { canUndo: boolean; canRedo: boolean };
  onUndo: () => void;
  onRedo: () => void;
}) {
  return (
    <Group gap="xs">
      <DeviceToggle value={device} onChange={onDeviceChange} />
      <Tooltip label="Undo">
        <ActionIcon variant="default" aria-label="Undo" disabled={!history.canUndo} onClick={onUndo}>
          <IconArrowBackUp size={16} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label="Redo">
        <ActionIcon variant="default" aria-label="Redo" disabled={!history.canRedo} onClick={onRedo}>
          <IconArrowForwardUp size={16} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

/**
 * GrapesJS ends text editing on any mousedown in the page; the merge tag menu must not, or the tag
 * could not go where the caret is.
 */
const keepTextEditing = (event: MouseEvent) => {
  event.preventDefault();
  event.stopPropagation();
};

/** The same inside the merge tag menu, whose default text field must still take the focus. */
const keepTextEditingBesideInput = (event: MouseEvent) => {
  event.stopPropagation();
  if (!(event.target instanceof HTMLInputElement)) event.preventDefault();
};

/**
 * The merge tag menu: each attribute's tag, written with the default typed at the top (`{{key|default}}`)
 * so that a profile without a value, and a preview for nobody, read that instead of nothing.
 */
function MergeTagMenu({
  tags,
  onInsert,
}: {
  tags: readonly { key: string; label: string }[];
  onInsert: (tag: string) => void;
}) {
  const [fallback, setFallback] = useState('');
  return (
    // The focus goes back into the text being edited, not to this menu's button.
    <Menu position="bottom-end" withinPortal returnFocus={false}>
      <Menu.Target>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconBraces size={14} />}
          onMouseDown={keepTextEditing}
        >
          Insert merge tag
        </Button>
      </Menu.Target>
      <Menu.Dropdown onMouseDown={keepTextEditingBesideInput} miw={260}>
        <Box px="xs" pt={6} pb="xs">
          <TextInput
            size="xs"
            label="When a profile has no value, write"
            placeholder="Nothing"
            value={fallback}
            onChange={(event) => setFallback(event.currentTarget.value)}
            // Mantine's menu would take Space and the arrows from the field for its own navigation.
            onKeyDown={(event) => event.stopPropagation()}
          />
        </Box>
        <Menu.Divider />
        {tags.length === 0 && <Menu.Item disabled>No customer profile attributes yet</Menu.Item>}
        {tags.map((tag) => (
          <Menu.Item key={tag.key} onClick={() => onInsert(mergeTagText(tag.key, fallback))}>
            {tag.label}{' '}
            <Text span c="dimmed" size="xs">
              {mergeTagText(tag.key, fallback)}
            </Text>
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

/** Blocks by menu as well as by dragging (keyboard users and tests can add them too), images, merge tags. */
function ContentControls({
  tags,
  onAddBlock,
  onOpenImages,
  onInsertMergeTag,
}: {
  tags: readonly { key: string; label: string }[];
  onAddBlock: (id: string) => void;
  onOpenImages: () => void;
  onInsertMergeTag: (tag: string) => void;
}) {
  return (
    <Group gap="xs">
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button size="xs" variant="default" leftSection={<IconLayoutGridAdd size={14} />}>
            Add block
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {BLOCKS.map((block) => (
            <Menu.Item key={block.id} onClick={() => onAddBlock(block.id)}>
              {block.label}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
      <Button size="xs" variant="default" leftSection={<IconPhoto size={14} />} onClick={onOpenImages}>
        Images
      </Button>
      <MergeTagMenu tags={tags} onInsert={onInsertMergeTag} />
    </Group>
  );
}

/**
 * Spec §1 email template editor: GrapesJS with its newsletter preset (drag-and-drop blocks), the
 * workspace's image sets and uploads as its asset manager, desktop and phone views, undo and redo,
 * merge tags, and a draft in browser storage that a reload offers back.
 */
export default function EmailEditor(props: FieldProps & { draftKey: string | null }) {
  const { value, onChange, draftKey, field, error } = props;
  const { containerRef, editorRef, withEditor, history, assetRequest, setAssetRequest } = useGrapesEditor(
    draftKey,
    asTemplate(value),
    onChange,
  );
  const workspace = useMediaWorkspace();
  const mergeTags = useMergeTags(workspace.workspaceId);
  const [device, setDevice] = useState<PreviewDevice>('desktop');
  const [draft, setDraft] = useState<EmailDraft | null>(() => {
    const stored = draftKey ? readDraft(draftKey) : null;
    return stored && differsFrom(stored, value) ? stored : null;
  });
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => {
    editorRef.current?.setDevice(device === 'phone' ? 'Phone' : 'Desktop');
  }, [editorRef, device]);

  const handleRestoreDraft = () => {
    if (!draft) return;
    withEditor((editor) => {
      loadTemplate(editor, draft.template);
      onChange(draft.template);
    });
    setDraft(null);
  };

  const handleInsertMergeTag = (tag: string) =>
    withEditor((editor) => {
      const placed = insertMergeTag(editor, tag);
      if (placed === 'block') setNotice(null);
      if (placed === 'no-text') setNotice('Select a text block first, then insert the merge tag.');
    });

  const handleImage = (image: InlineImage) => {
    withEditor((editor) => insertImage(editor, image, assetRequest));
    setAssetRequest(null);
  };

  return (
    <Stack gap="xs" data-testid="email-editor">
      {draft && <DraftOffer draft={draft} onRestore={handleRestoreDraft} onDiscard={() => setDraft(null)} />}
      <Group gap="xs" justify="space-between" wrap="wrap">
        <ViewControls
          device={device}
          onDeviceChange={setDevice}
          history={history}
          onUndo={() => withEditor((editor) => editor.UndoManager.undo())}
          onRedo={() => withEditor((editor) => editor.UndoManager.redo())}
        />
        <ContentControls
          tags={mergeTags.data?.mergeTags ?? []}
          onAddBlock={(id) => withEditor((editor) => addBlock(editor, id))}
          onOpenImages={() => withEditor((editor) => editor.AssetManager.open({ types: ['image'] }))}
          onInsertMergeTag={handleInsertMergeTag}
        />
      </Group>
      {notice && (
        <Text size="xs" c="orange.8" role="status">
          {notice}
        </Text>
      )}
      <Box className={classes.frame} aria-label={field.label} data-testid="email-canvas">
        <div ref={containerRef} />
      </Box>
      {error && (
        <Text size="xs" c="red" role="alert">
          {error}
        </Text>
      )}
      <ImageSetPicker
        opened={assetRequest !== null}
        onClose={() => {
          assetRequest?.close();
          setAssetRequest(null);
        }}
        onInsert={handleImage}
        workspace={workspace}
      />
    </Stack>
  );
}
