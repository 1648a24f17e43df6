import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { MathematicalModelResult } from '../../../common/teams/model';
import { MathBlock } from './Math';
import { fmt, SimpleTable } from './SimpleTable';

const code = (s: string) => (
  <Box
    component="code"
    sx={{
      fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
      fontSize: '0.85rem',
    }}
  >
    {s}
  </Box>
);

/** Model tab: the equations in KaTeX and in the description format, what the engine checked. */
export function ModelTab({ model }: { model: MathematicalModelResult | undefined }) {
  if (!model) {
    return (
      <Typography color="text.secondary">
        The equations appear here once the Mathematical Model phase has run.
      </Typography>
    );
  }
  const d = model.description;
  return (
    <Stack spacing={3}>
      <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="h6" component="h2">
          {d.title}
        </Typography>
        {model.source === 'library' ? (
          <Chip label="Library's canonical equations" size="small" variant="outlined" />
        ) : (
          <Chip
            label="Proposed by the language model, checked by the engine"
            size="small"
            color="primary"
            variant="outlined"
          />
        )}
      </Stack>
      {model.adaptationMissing && (
        <Alert severity="warning">
          The adaptation of the equations to your focus is missing: {model.adaptationMissing} The
          library&apos;s canonical equations are solved below.
        </Alert>
      )}
      {model.explanation && <Typography variant="body2">{model.explanation}</Typography>}

      <section aria-label="Equations">
        <Typography variant="subtitle1" component="h3" sx={{ mb: 1 }}>
          Equations
        </Typography>
        {model.equations.map((e, i) => (
          <Box key={`${e.label}-${i}`} sx={{ mb: 1 }}>
            <Typography variant="body2" color="text.secondary">
              ({i + 1}) {e.label}
            </Typography>
            <MathBlock latex={e.latex} label={`${e.label}: ${e.text}`} />
          </Box>
        ))}
      </section>

      <section aria-label="Engine checks">
        <Typography variant="subtitle1" component="h3" sx={{ mb: 1 }}>
          What the engine checked
        </Typography>
        <SimpleTable
          caption="Checks of the model"
          header={['#', 'Proposal', 'Result', 'Message']}
          rows={model.checks.map((c) => [
            c.attempt,
            c.proposal,
            c.ok ? (
              <Chip key="ok" label="passed" color="success" size="small" />
            ) : (
              <Chip
                key="no"
                label={`failed: ${c.stage.replace('_', ' ')}`}
                color="error"
                size="small"
              />
            ),
            c.message,
          ])}
        />
        <Alert severity={model.blanchardKahn.satisfied ? 'success' : 'error'} sx={{ mt: 1 }}>
          {model.blanchardKahn.message}
        </Alert>
      </section>

      {model.changes.length > 0 && (
        <section aria-label="Changes">
          <Typography variant="subtitle1" component="h3" sx={{ mb: 1 }}>
            Changes to the library&apos;s model
          </Typography>
          <SimpleTable
            caption="Changes to the library's model"
            header={['Change', 'Name', 'Before', 'After']}
            rows={model.changes.map((c) => [
              `${c.kind} ${c.what}`,
              c.name,
              c.before ? code(c.before) : '',
              c.after ? code(c.after) : '',
            ])}
          />
        </section>
      )}

      <section aria-label="Variables">
        <Typography variant="subtitle1" component="h3" sx={{ mb: 1 }}>
          Variables and steady state
        </Typography>
        <SimpleTable
          caption="Endogenous variables"
          header={['Name', 'Meaning', 'Steady state']}
          rows={d.endogenous.map((v) => [code(v.name), v.label, fmt(model.steadyState[v.name])])}
        />
      </section>

      <section aria-label="Parameters">
        <Typography variant="subtitle1" component="h3" sx={{ mb: 1 }}>
          Parameters
        </Typography>
        <SimpleTable
          caption="Parameters"
          header={['Name', 'Meaning', 'Value', 'Source']}
          rows={d.parameters.map((p) => [
            code(p.name),
            p.label,
            p.expr !== undefined ? code(p.expr) : fmt(p.value),
            p.source,
          ])}
        />
      </section>

      <section aria-label="Description format">
        <Typography variant="subtitle1" component="h3" sx={{ mb: 1 }}>
          In the description format (Dynare syntax)
        </Typography>
        <Box
          component="pre"
          sx={{
            p: 1.5,
            bgcolor: 'action.hover',
            borderRadius: 1,
            overflowX: 'auto',
            fontSize: '0.8rem',
          }}
        >
          {model.equations.map((e) => `${e.text};`).join('\n')}
        </Box>
      </section>
    </Stack>
  );
}
