import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import Box from '@mui/material/Box';
import type { TheoryResult } from '../../../common/teams/model';
import { OriginMark } from '../../components/OriginMark';
import { MarkdownText } from './Math';
import { NotSupplied } from './NotSupplied';

function List({ title, items }: { title: string; items: string[] }) {
  if (items.length === 0) return null;
  return (
    <div>
      <Typography variant="subtitle2" component="h3">
        {title}
      </Typography>
      <ul style={{ marginTop: 4 }}>
        {items.map((item, i) => (
          <li key={i}>
            <Typography variant="body2">{item}</Typography>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * Theory tab: the adapted framework (text written by the model, marked as such and never styled
 * like a computed result), the library's text labelled as such, or the summary of an imported
 * .mod file.
 */
export function TheoryTab({ theory }: { theory: TheoryResult | undefined }) {
  if (!theory) {
    return (
      <Typography color="textSecondary">
        The theoretical framework appears here once the first phase has run.
      </Typography>
    );
  }
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="h6" component="h2">
          {theory.title}
        </Typography>
        {theory.source === 'library' && (
          <Chip label="Library text" size="small" variant="outlined" />
        )}
        {theory.source === 'imported' && (
          <Chip label="Summary of your .mod file" size="small" variant="outlined" />
        )}
        {theory.source === 'model' && (
          <Chip label="Adapted by the language model" size="small" variant="outlined" />
        )}
      </Stack>
      <Typography variant="body2" color="textSecondary">
        Focus: {theory.focus}
      </Typography>
      {theory.adaptationMissing && (
        <Alert severity="warning">
          The adaptation to your focus is missing: {theory.adaptationMissing} Shown below is the
          library&apos;s documented framework of the canonical model.
        </Alert>
      )}
      {theory.source === 'model' ? (
        <Box
          component="section"
          aria-label="Framework written by the model"
          data-origin="model"
          sx={{ borderLeft: 3, borderColor: 'warning.main', borderLeftStyle: 'dashed', pl: 2 }}
        >
          <OriginMark origin="model" />
          <MarkdownText source={theory.framework} />
          <List title="Assumptions" items={theory.assumptions} />
          <List title="Mechanisms" items={theory.mechanisms} />
          <List title="Agents" items={theory.agents} />
          <List title="Markets" items={theory.markets} />
        </Box>
      ) : (
        <MarkdownText source={theory.framework} />
      )}
      <NotSupplied items={theory.notSupplied} />
      {theory.source === 'model' && (
        <details>
          <summary>
            <Typography component="span" variant="body2">
              The library&apos;s documented framework (library text)
            </Typography>
          </summary>
          <MarkdownText source={theory.libraryFramework} />
        </details>
      )}
      {theory.references.length > 0 && (
        <>
          <Divider />
          <Typography variant="subtitle2" component="h3">
            References (from the library&apos;s list)
          </Typography>
          <ul style={{ marginTop: 0 }}>
            {theory.references.map((r) => (
              <li key={r.citation}>
                <Typography variant="body2">{r.citation}</Typography>
              </li>
            ))}
          </ul>
        </>
      )}
    </Stack>
  );
}
