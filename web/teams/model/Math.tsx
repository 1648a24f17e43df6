import { useMemo } from 'react';
import katex from 'katex';
import Box from '@mui/material/Box';
import ReactMarkdown from 'react-markdown';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import rehypeKatex from 'rehype-katex';
import 'katex/dist/katex.min.css';

/**
 * One equation in display mode. KaTeX escapes its input and `trust` stays off, so LaTeX written
 * by a model cannot add links or markup; a LaTeX error is shown in place (throwOnError off).
 */
export function MathBlock({ latex, label }: { latex: string; label?: string }) {
  const html = useMemo(
    () =>
      katex.renderToString(latex, {
        displayMode: true,
        throwOnError: false,
        strict: 'ignore',
        trust: false,
      }),
    [latex],
  );
  return (
    <Box
      role="math"
      aria-label={label ?? latex}
      sx={{ overflowX: 'auto', overflowY: 'hidden', py: 0.5 }}
      // KaTeX output of escaped input (see above)
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}

/** Markdown with $...$ / $$...$$ math; react-markdown renders no raw HTML from the text. */
export function MarkdownText({ source }: { source: string }) {
  return (
    <Box
      sx={{
        typography: 'body1',
        overflowWrap: 'anywhere',
        '& h1, & h2, & h3': { mt: 2, mb: 1, lineHeight: 1.3 },
        '& h1': { typography: 'h6' },
        '& h2': { typography: 'subtitle1', fontWeight: 600 },
        '& h3': { typography: 'subtitle2' },
        '& p': { my: 1 },
        '& .katex-display': { overflowX: 'auto', overflowY: 'hidden', py: 0.5 },
      }}
    >
      <ReactMarkdown remarkPlugins={[remarkGfm, remarkMath]} rehypePlugins={[rehypeKatex]}>
        {source}
      </ReactMarkdown>
    </Box>
  );
}
