import { useEffect, useRef } from 'react';
import { basicSetup } from 'codemirror';
import { javascript } from '@codemirror/lang-javascript';
import { Annotation, EditorState, RangeSetBuilder, type Extension } from '@codemirror/state';
import { Decoration, EditorView } from '@codemirror/view';

/** Marks the editor's own replacements (a new value from outside), which the guard lets through. */
const external = Annotation.define<boolean>();

export interface CodeEditorProps {
  value: string;
  language: 'typescript' | 'javascript' | 'json' | 'html' | 'css';
  readOnly: boolean;
  height: number;
  /**
   * Decides an edit: the code to keep. Returning `previous` refuses the edit; returning anything else
   * replaces the whole text with it.
   */
  guard: (previous: string, next: string) => string;
  onChange: (code: string) => void;
  ariaLabel: string;
  /** Lengths of the fixed beginning and ending blocks, shaded so users see what they cannot change. */
  fixed?: { begin: number; end: number };
}

const fixedMark = Decoration.mark({ class: 'cm-fixed-block' });

function fixedBlocks(fixed: { begin: number; end: number }): Extension {
  return EditorView.decorations.compute(['doc'], (state) => {
    const builder = new RangeSetBuilder<Decoration>();
    const length = state.doc.length;
    if (fixed.begin + fixed.end > length) return builder.finish();
    if (fixed.begin > 0) builder.add(0, fixed.begin, fixedMark);
    if (fixed.end > 0) builder.add(length - fixed.end, length, fixedMark);
    return builder.finish();
  });
}

function languageOf(language: CodeEditorProps['language']): Extension {
  if (language === 'typescript') return javascript({ typescript: true });
  if (language === 'javascript' || language === 'json') return javascript();
  return [];
}

/** CodeMirror 6 (loaded lazily by `CodeField`): every edit passes `guard` before it is applied. */
export default function CodeEditor({
  value,
  language,
  readOnly,
  height,
  guard,
  onChange,
  ariaLabel,
  fixed,
}: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const latest = useRef({ guard, onChange });
  useEffect(() => {
    latest.current = { guard, onChange };
  });

  useEffect(() => {
    if (!host.current) return;
    const guardFilter = EditorState.transactionFilter.of((tr) => {
      if (!tr.docChanged || tr.annotation(external)) return tr;
      const previous = tr.startState.doc.toString();
      const next = tr.newDoc.toString();
      const kept = latest.current.guard(previous, next);
      if (kept === next) return tr;
      if (kept === previous) return [];
      return {
        changes: { from: 0, to: tr.startState.doc.length, insert: kept },
        selection: { anchor: Math.min(kept.length, tr.startState.selection.main.head) },
      };
    });
    const instance = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: value,
        extensions: [
          basicSetup,
          languageOf(language),
          guardFilter,
          fixed ? fixedBlocks(fixed) : [],
          EditorState.readOnly.of(readOnly),
          EditorView.editable.of(!readOnly),
          EditorView.contentAttributes.of({ 'aria-label': ariaLabel }),
          EditorView.theme({
            '&': {
              height: `${height}px`,
              fontSize: '13px',
              border: '1px solid var(--mantine-color-gray-4)',
              borderRadius: 'var(--mantine-radius-md)',
            },
            '&.cm-focused': { outline: '2px solid var(--mantine-color-marquee-5)', outlineOffset: '-1px' },
            '.cm-fixed-block': {
              backgroundColor: 'var(--mantine-color-gray-1)',
              color: 'var(--mantine-color-gray-6)',
            },
            '.cm-scroller': {
              fontFamily: 'var(--mantine-font-family-monospace)',
              borderRadius: 'var(--mantine-radius-md)',
            },
          }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged && !update.transactions.some((tr) => tr.annotation(external))) {
              latest.current.onChange(update.state.doc.toString());
            }
          }),
        ],
      }),
    });
    view.current = instance;
    return () => {
      instance.destroy();
      view.current = null;
    };
    // The editor is built once per language and mode; value changes are synced below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [language, readOnly, height, ariaLabel, fixed?.begin, fixed?.end]);

  useEffect(() => {
    const instance = view.current;
    if (!instance) return;
    const current = instance.state.doc.toString();
    if (current !== value) {
      instance.dispatch({
        changes: { from: 0, to: current.length, insert: value },
        annotations: external.of(true),
      });
    }
  }, [value]);

  return <div ref={host} data-code-editor />;
}
