import { lazy, Suspense } from 'react';
import Skeleton from '@mui/material/Skeleton';
import type { CodeEditorProps } from './CodeEditor';

// CodeMirror and its language grammars are the largest part of the screen: they load after the
// screen itself shows, as their own chunk.
const CodeEditor = lazy(() => import('./CodeEditor').then((m) => ({ default: m.CodeEditor })));

/** The code editor, loaded on first use (a placeholder of its size until then). */
export function LazyCodeEditor(props: CodeEditorProps) {
  return (
    <Suspense
      fallback={
        <Skeleton
          variant="rectangular"
          height={props.minHeight ?? 240}
          aria-label={`${props.label} (loading)`}
        />
      }
    >
      <CodeEditor {...props} />
    </Suspense>
  );
}
