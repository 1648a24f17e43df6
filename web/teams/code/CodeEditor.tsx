import { useEffect, useRef } from 'react';
import Box from '@mui/material/Box';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import {
  bracketMatching,
  defaultHighlightStyle,
  indentOnInput,
  syntaxHighlighting,
} from '@codemirror/language';
import { Compartment, EditorState } from '@codemirror/state';
import {
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
} from '@codemirror/view';
import type { CodeLanguage } from '../../../common/teams/code';
import { languageExtension } from './editorLanguages';

export interface CodeEditorProps {
  value: string;
  onChange?: (value: string) => void;
  language: CodeLanguage;
  readOnly?: boolean;
  /** Accessible name of the editing area. */
  label: string;
  minHeight?: number;
  maxHeight?: number;
}

/** Colours from the app's theme variables, so the editor follows light and dark mode. */
const themeExtension = EditorView.theme({
  '&': {
    color: 'var(--mui-palette-text-primary)',
    backgroundColor: 'transparent',
    fontSize: '0.875rem',
  },
  '.cm-content': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' },
  '.cm-gutters': {
    backgroundColor: 'var(--mui-palette-action-hover)',
    color: 'var(--mui-palette-text-secondary)',
    border: 'none',
  },
  '.cm-activeLine, .cm-activeLineGutter': { backgroundColor: 'var(--mui-palette-action-hover)' },
  '&.cm-focused': { outline: '2px solid var(--mui-palette-primary-main)' },
  '.cm-cursor': { borderLeftColor: 'var(--mui-palette-text-primary)' },
});

/**
 * A CodeMirror 6 editor (the Code Editor tab, and read-only views of the optimized code and the
 * tests). Tab is left to move the focus on, so keyboard users are never trapped in the editor.
 */
export function CodeEditor({
  value,
  onChange,
  language,
  readOnly = false,
  label,
  minHeight = 240,
  maxHeight = 560,
}: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const languageSlot = useRef(new Compartment());
  const editableSlot = useRef(new Compartment());
  const changeHandler = useRef(onChange);
  useEffect(() => {
    changeHandler.current = onChange;
  });

  // The view is made once; value, language and read-only changes are dispatched to it below.
  useEffect(() => {
    if (!host.current) return;
    const editor = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          highlightActiveLineGutter(),
          history(),
          drawSelection(),
          indentOnInput(),
          bracketMatching(),
          highlightActiveLine(),
          syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
          keymap.of([...defaultKeymap, ...historyKeymap]),
          languageSlot.current.of(languageExtension(language)),
          editableSlot.current.of([
            EditorState.readOnly.of(readOnly),
            EditorView.editable.of(!readOnly),
          ]),
          EditorView.contentAttributes.of({
            'aria-label': label,
            'aria-multiline': 'true',
            role: 'textbox',
          }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) changeHandler.current?.(update.state.doc.toString());
          }),
          themeExtension,
          EditorView.lineWrapping,
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- made once; updates are dispatched
  }, []);

  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    const current = editor.state.doc.toString();
    if (current !== value) {
      editor.dispatch({ changes: { from: 0, to: current.length, insert: value } });
    }
  }, [value]);

  useEffect(() => {
    view.current?.dispatch({
      effects: languageSlot.current.reconfigure(languageExtension(language)),
    });
  }, [language]);

  useEffect(() => {
    view.current?.dispatch({
      effects: editableSlot.current.reconfigure([
        EditorState.readOnly.of(readOnly),
        EditorView.editable.of(!readOnly),
      ]),
    });
  }, [readOnly]);

  return (
    <Box
      ref={host}
      data-testid={readOnly ? undefined : 'code-editor'}
      sx={{
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        overflow: 'hidden',
        '& .cm-editor': { minHeight, maxHeight },
        '& .cm-scroller': { overflow: 'auto' },
      }}
    />
  );
}
