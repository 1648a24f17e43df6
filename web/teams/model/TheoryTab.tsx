import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { TheoryResult } from '../../../common/teams/model';
import { MarkdownText } from './Math';

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

/** Theory tab: the adapted framework, or the library's text labelled as such. */
export function TheoryTab({ theory }: { theory: TheoryResult | undefined }) {
  if (!theory) {
    return (
      <Typography color="text.secondary">
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
        {theory.source === 'library' ? (
          <Chip label="Library text" size="small" variant="outlined" />
        ) : (
          <Chip
            label="Adapted by the language model"
            size="small"
            color="primary"
            variant="outlined"
          />
        )}
      </Stack>
      <Typography variant="body2" color="text.secondary">
        Focus: {theory.focus}
      </Typography>
      {theory.adaptationMissing && (
        <Alert severity="warning">
          The adaptation to your focus is missing: {theory.adaptationMissing} Shown below is the
          library&apos;s documented framework of the canonical model.
        </Alert>
      )}
      <MarkdownText source={theory.framework} />
      <List title="Assumptions" items={theory.assumptions} />
      <List title="Mechanisms" items={theory.mechanisms} />
      <List title="Agents" items={theory.agents} />
      <List title="Markets" items={theory.markets} />
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
    </Stack>
  );
}
