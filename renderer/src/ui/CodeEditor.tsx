// A CodeMirror 6 editor for request bodies: JSON highlighting and a JSON lint when asked, colours from the
// theme's CSS variables (light and dark). Heavy: import it lazily (`lazy(() => import('…/CodeEditor'))`).
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { json, jsonParseLinter } from '@codemirror/lang-json';
import { bracketMatching, HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { linter, lintGutter } from '@codemirror/lint';
import { Compartment, EditorState, Prec } from '@codemirror/state';
import { EditorView, keymap, lineNumbers, placeholder as placeholderExt } from '@codemirror/view';
import { tags } from '@lezer/highlight';
import { useEffect, useRef } from 'react';

/** JSON language and lint; an empty document is fine (no body), not a parse error. */
function jsonSupport() {
  const parse = jsonParseLinter();
  return [json(), linter((view) => (view.state.doc.length === 0 ? [] : parse(view)), { delay: 300 })];
}

/**
 * Past this size (characters) the editor drops what costs per keystroke over the whole document — the
 * JSON parser and lint, and soft wrapping of long lines — so pasting a multi-megabyte body stays quick.
 */
export const LARGE_DOCUMENT = 256 * 1024;

/** Ctrl/⌘+Enter belongs to the page (send), not to the editor: without this it inserts a blank line first. */
const leaveModEnterToThePage = Prec.highest(keymap.of([{ key: 'Mod-Enter', run: () => true }]));

const highlight = HighlightStyle.define([
  { tag: tags.string, color: 'var(--success)' },
  { tag: tags.number, color: 'var(--info)' },
  { tag: [tags.bool, tags.null], color: 'var(--accent)' },
  { tag: tags.propertyName, color: 'var(--warning)' },
  { tag: tags.invalid, color: 'var(--danger)' },
]);

const theme = EditorView.theme({
  '&': {
    backgroundColor: 'var(--bg-raised)',
    color: 'var(--text)',
    border: '1px solid var(--border-strong)',
    borderRadius: 'var(--radius-sm)',
    fontSize: '12.5px',
  },
  '&.cm-focused': { outline: '2px solid var(--focus)', outlineOffset: '-1px' },
  '.cm-content': { fontFamily: 'var(--font-mono)', caretColor: 'var(--text)', minHeight: '140px' },
  '.cm-scroller': { maxHeight: '360px', overflow: 'auto' },
  '.cm-gutters': {
    backgroundColor: 'var(--bg-sunken)',
    color: 'var(--text-faint)',
    border: 'none',
    borderRight: '1px solid var(--border)',
  },
  '.cm-activeLine': { backgroundColor: 'transparent' },
  '.cm-selectionBackground, &.cm-focused .cm-selectionBackground, ::selection': {
    backgroundColor: 'var(--bg-selected) !important',
  },
  '.cm-cursor': { borderLeftColor: 'var(--text)' },
  '.cm-placeholder': { color: 'var(--text-faint)' },
  '.cm-tooltip': {
    backgroundColor: 'var(--bg-raised)',
    color: 'var(--text)',
    border: '1px solid var(--border)',
  },
  '.cm-diagnostic-error': { borderLeftColor: 'var(--danger)' },
});

export interface CodeEditorProps {
  value: string;
  onChange: (value: string) => void;
  /** JSON highlighting and a parse lint. */
  json: boolean;
  ariaLabel: string;
  placeholder?: string;
}

export default function CodeEditor({
  value,
  onChange,
  json: isJson,
  ariaLabel,
  placeholder,
}: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const language = useRef(new Compartment());
  const wrapping = useRef(new Compartment());
  const large = value.length > LARGE_DOCUMENT;
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  });

  useEffect(() => {
    const editor = new EditorView({
      parent: host.current as HTMLDivElement,
      state: EditorState.create({
        doc: value,
        extensions: [
          leaveModEnterToThePage,
          lineNumbers(),
          history(),
          bracketMatching(),
          lintGutter(),
          keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
          syntaxHighlighting(highlight),
          theme,
          placeholderExt(placeholder ?? ''),
          wrapping.current.of(large ? [] : EditorView.lineWrapping),
          EditorView.contentAttributes.of({ 'aria-label': ariaLabel }),
          language.current.of(isJson && !large ? jsonSupport() : []),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) onChangeRef.current(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
    // Created once; value and language changes are applied by the effects below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const editor = view.current;
    // Typing arrives here as the same text the editor has: compare lengths before building the string.
    if (editor && (editor.state.doc.length !== value.length || editor.state.doc.toString() !== value)) {
      editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
    }
  }, [value]);

  useEffect(() => {
    view.current?.dispatch({
      effects: [
        language.current.reconfigure(isJson && !large ? jsonSupport() : []),
        wrapping.current.reconfigure(large ? [] : EditorView.lineWrapping),
      ],
    });
  }, [isJson, large]);

  return <div ref={host} className="code-editor" />;
}
