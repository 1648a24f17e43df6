import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { CalibrationResult, MathematicalModelResult } from '../../../common/teams/model';
import { OriginMark } from '../../components/OriginMark';
import { MathBlock } from './Math';
import { NotSupplied } from './NotSupplied';
import { ParameterSource } from './ParameterSource';
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

/** The parameter rows: the session's final values once calibrated, else this phase's. */
function parameterRows(model: MathematicalModelResult, calibration: CalibrationResult | undefined) {
  if (calibration) {
    return calibration.parameters.map((p) => [
      code(p.name),
      p.label,
      fmt(p.value),
      <ParameterSource key="s" origin={p.origin} source={p.source} derived={p.derived} />,
    ]);
  }
  const sources = new Map(model.parameterSources.map((s) => [s.name, s]));
  return model.description.parameters.map((p) => [
    code(p.name),
    p.label,
    p.expr !== undefined ? code(p.expr) : fmt(p.value),
    <ParameterSource
      key="s"
      origin={sources.get(p.name)?.origin}
      source={sources.get(p.name)?.source ?? p.source}
    />,
  ]);
}

/**
 * Model tab: the equations printed from what the engine parsed and solved (KaTeX and the
 * description format), the model's own LaTeX only as a marked annotation, what the engine
 * checked, and the parameters with where each value came from.
 */
export function ModelTab({
  model,
  calibration,
}: {
  model: MathematicalModelResult | undefined;
  calibration?: CalibrationResult | undefined;
}) {
  if (!model) {
    return (
      <Typography color="textSecondary">
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
        {model.source === 'library' && (
          <Chip label="Library's canonical equations" size="small" variant="outlined" />
        )}
        {model.source === 'imported' && (
          <Chip label="Your .mod file, checked by the engine" size="small" variant="outlined" />
        )}
        {model.source === 'model' && (
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
      {model.explanation && (
        <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }} data-origin="model">
          <OriginMark origin="model" />
          <Typography variant="body2">{model.explanation}</Typography>
        </Stack>
      )}
      <NotSupplied items={model.notSupplied} />

      <section aria-label="Equations">
        <Typography variant="subtitle1" component="h3" sx={{ mb: 1 }}>
          Equations
        </Typography>
        <Typography variant="body2" color="textSecondary" sx={{ mb: 1 }}>
          Printed from the equations the engine parsed and solved.
        </Typography>
        {model.equations.map((e, i) => (
          <Box key={`${e.label}-${i}`} sx={{ mb: 1 }}>
            <Typography variant="body2" color="textSecondary">
              ({i + 1}) {e.label}
            </Typography>
            <MathBlock latex={e.latex} label={`${e.label}: ${e.text}`} />
            {e.modelLatex && (
              <Box
                component="aside"
                aria-label={`The model's own LaTeX of equation ${i + 1}`}
                data-origin="model"
                sx={{
                  borderLeft: 3,
                  borderColor: 'warning.main',
                  borderLeftStyle: 'dashed',
                  pl: 1.5,
                }}
              >
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                  <OriginMark origin="model" />
                  <Typography variant="caption" color="textSecondary">
                    The model&apos;s own LaTeX (an annotation: the equation solved is the one above)
                  </Typography>
                </Stack>
                <MathBlock latex={e.modelLatex} label={`The model's LaTeX: ${e.modelLatex}`} />
              </Box>
            )}
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
          {calibration ? 'Parameters (final values, after calibration)' : 'Parameters'}
        </Typography>
        <SimpleTable
          caption="Parameters"
          header={['Name', 'Meaning', 'Value', 'Source']}
          rows={parameterRows(model, calibration)}
        />
      </section>

      {model.imported && (
        <section aria-label="Import of the .mod file">
          <Typography variant="subtitle1" component="h3" sx={{ mb: 1 }}>
            Import of {model.imported.fileName ?? 'the .mod file'}
          </Typography>
          {model.imported.notes.length > 0 && (
            <>
              <Typography variant="subtitle2" component="h4">
                Notes
              </Typography>
              <ul style={{ marginTop: 4 }}>
                {model.imported.notes.map((n) => (
                  <li key={n}>
                    <Typography variant="body2">{n}</Typography>
                  </li>
                ))}
              </ul>
            </>
          )}
          <Typography variant="subtitle2" component="h4">
            Not run
          </Typography>
          {model.imported.notRun.length > 0 ? (
            <SimpleTable
              caption="Statements not run"
              header={['Line', 'Statement (after stoch_simul)']}
              rows={model.imported.notRun.map((s) => [s.line, code(s.statement)])}
            />
          ) : (
            <Typography variant="body2">
              Nothing: the file has no statement after stoch_simul.
            </Typography>
          )}
        </section>
      )}

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
