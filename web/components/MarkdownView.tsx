import ReactMarkdown from 'react-markdown';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import rehypeKatex from 'rehype-katex';
import { Box } from '@mui/material';
import 'katex/dist/katex.min.css';
import { ORIGIN_LABELS, splitModelPassages } from '../../common/provenance';
import { OriginMark } from './OriginMark';

/**
 * Renders a document's Markdown with GitHub tables and KaTeX math ($...$ and $$...$$).
 * react-markdown never renders raw HTML from the source, so uploaded text cannot inject markup.
 * A passage marked as written by the model (common/provenance.ts modelPassage) is shown in a
 * block of its own, outlined in the warning colour under the model's origin mark.
 */
export function MarkdownView({ source }: { source: string }) {
  return (
    <Box
      className="markdown-body"
      sx={{
        typography: 'body1',
        overflowWrap: 'anywhere',
        '& h1, & h2, & h3, & h4': { mt: 2, mb: 1, lineHeight: 1.3 },
        '& h1': { typography: 'h5' },
        '& h2': { typography: 'h6' },
        '& p': { my: 1 },
        '& pre': {
          p: 1.5,
          borderRadius: 1,
          overflowX: 'auto',
          bgcolor: 'action.hover',
          fontSize: '0.875rem',
        },
        '& code': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' },
        '& table': { borderCollapse: 'collapse', my: 1, display: 'block', overflowX: 'auto' },
        '& th, & td': { border: 1, borderColor: 'divider', px: 1, py: 0.5, textAlign: 'left' },
        '& blockquote': {
          borderLeft: 4,
          borderColor: 'divider',
          pl: 2,
          ml: 0,
          color: 'text.secondary',
        },
        '& .katex-display': { overflowX: 'auto', overflowY: 'hidden', py: 0.5 },
        '& a': { color: 'primary.main' },
      }}
    >
      {splitModelPassages(source).map((segment, i) =>
        segment.kind === 'text' ? (
          <Markdown key={i} source={segment.text} />
        ) : (
          <Box
            key={i}
            component="section"
            aria-label={`${ORIGIN_LABELS.model}${segment.title ? `: ${segment.title}` : ''}`}
            data-origin="model"
            sx={{
              my: 2,
              p: 1.5,
              border: 2,
              borderStyle: 'dashed',
              borderColor: 'warning.main',
              borderRadius: 1,
            }}
          >
            <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
              <OriginMark origin="model" />
              {segment.title && <strong>{segment.title}</strong>}
            </Box>
            <Markdown source={segment.text} />
          </Box>
        ),
      )}
    </Box>
  );
}

function Markdown({ source }: { source: string }) {
  return (
    <ReactMarkdown remarkPlugins={[remarkGfm, remarkMath]} rehypePlugins={[rehypeKatex]}>
      {source}
    </ReactMarkdown>
  );
}
