import { useMemo, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  isUnitRootMoment,
  TARGET_TRANSFORM_LABELS,
  UNIT_ROOT_MOMENT,
  type CalibrationResult,
  type MathematicalModelResult,
  type ModelRun,
} from '../../../common/teams/model';
import { OriginMark } from '../../components/OriginMark';
import { LabelledSelect } from '../shared';
import { LineChartFigure } from './LineChartFigure';
import { ParameterSource } from './ParameterSource';
import { fmt, SimpleTable } from './SimpleTable';

/** A theoretical moment; a variable on a unit root has none (as Dynare reports none). */
export function momentCell(
  value: number | null | undefined,
  variable: string,
  run: Pick<ModelRun, 'unitRoot'>,
): string {
  return isUnitRootMoment(value, variable, run) ? UNIT_ROOT_MOMENT : fmt(value);
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Box component="section" aria-label={title}>
      <Typography variant="subtitle1" component="h3" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

const range = (n: number, from = 1) => Array.from({ length: n }, (_, i) => i + from);

/** Calibration tab: parameters, targets, moment matching, IRFs, moments, paths, Dynare. */
export function CalibrationTab({
  calibration,
  model,
}: {
  calibration: CalibrationResult | undefined;
  model: MathematicalModelResult | undefined;
}) {
  const run = calibration?.run;
  const description = model?.description;
  const labels = useMemo(
    () => new Map((description?.endogenous ?? []).map((v) => [v.name, v.label])),
    [description],
  );
  const shockLabels = useMemo(
    () => new Map((description?.exogenous ?? []).map((v) => [v.name, v.label])),
    [description],
  );
  const variables = run ? Object.keys(run.steadyState) : [];
  const keyVariables = (description?.keyVariables.length ? description.keyVariables : variables)
    .filter((v) => variables.includes(v))
    .slice(0, 6);
  const [pathVariable, setPathVariable] = useState<string>('');
  const shownPath =
    pathVariable && variables.includes(pathVariable)
      ? pathVariable
      : (keyVariables[0] ?? variables[0] ?? '');

  if (!calibration || !run) {
    return (
      <Typography color="textSecondary">
        The calibration, moments and impulse responses appear here once the Calibration &amp;
        Estimation phase has run.
      </Typography>
    );
  }
  const theo = run.theoreticalMoments;
  const sim = run.simulatedMoments;
  const series = run.simulation.series[shownPath] ?? [];
  const transition = run.transition?.paths[shownPath];

  return (
    <Stack spacing={3}>
      <Alert severity="info" variant="outlined">
        Every number on this tab is computed by the model engine from the equations and parameter
        values shown.
      </Alert>
      {calibration.feedbackNote &&
        (calibration.feedbackNoteByModel ? (
          <Alert severity="warning" variant="outlined" icon={false} data-origin="model">
            <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }}>
              <OriginMark origin="model" />
              <span>{calibration.feedbackNote}</span>
            </Stack>
          </Alert>
        ) : (
          <Alert severity="warning">{calibration.feedbackNote}</Alert>
        ))}
      {run.unitRoot && (
        <Alert severity="warning" role="note" aria-label="Unit root">
          {run.unitRoot.note}
        </Alert>
      )}

      <Section title="Parameters">
        <SimpleTable
          caption="Calibrated parameters"
          header={['Name', 'Meaning', 'Value', 'Source']}
          rows={calibration.parameters.map((p) => [
            <code key="n">{p.name}</code>,
            p.label,
            <Stack key="v" direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
              <span>{fmt(p.value)}</span>
              {p.estimated && (
                <Chip label="estimated" size="small" color="primary" variant="outlined" />
              )}
              {p.changedByFeedback && p.origin === 'researcher' && (
                <Chip label="your value" size="small" color="secondary" variant="outlined" />
              )}
            </Stack>,
            <ParameterSource key="s" origin={p.origin} source={p.source} derived={p.derived} />,
          ])}
        />
      </Section>

      <Section title="Target moments">
        <Typography variant="body2" color="textSecondary" sx={{ mb: 1 }}>
          Targets: {calibration.targetsSource}.
        </Typography>
        {calibration.targetData?.problem && (
          <Alert severity="warning" sx={{ mb: 1 }}>
            {calibration.targetData.problem}. The documented stylised facts are used instead.
          </Alert>
        )}
        {calibration.targetData && !calibration.targetData.problem && (
          <Box sx={{ mb: 2 }}>
            <Typography variant="body2" sx={{ mb: 1 }}>
              Dataset <strong>{calibration.targetData.datasetName}</strong>: sample{' '}
              {calibration.targetData.start} to {calibration.targetData.end},{' '}
              {calibration.targetData.observations} {calibration.targetData.frequency} observations.
              The moments are computed from the data by the engine; they replace the documented
              facts for the variables below.
            </Typography>
            <SimpleTable
              caption="Target dataset: columns and model variables"
              header={['Column', 'Model variable', 'Transform']}
              rows={calibration.targetData.columns.map((c) => [
                c.column,
                <code key="v">{c.variable}</code>,
                c.lambda !== null
                  ? `${TARGET_TRANSFORM_LABELS[c.transform]} (λ ${c.lambda})`
                  : TARGET_TRANSFORM_LABELS[c.transform],
              ])}
            />
          </Box>
        )}
        {run.targets.length > 0 && (
          <SimpleTable
            caption="Model moments against targets"
            header={['Moment', 'Filter', 'Target', 'Model', 'Source']}
            rows={run.targets.map((t) => [
              `${t.statistic}(${t.variable}${t.other ? `, ${t.other}` : ''})`,
              t.filter === 'hp' ? `HP (λ ${t.lambda ?? 1600})` : 'none',
              fmt(t.value),
              fmt(t.model),
              t.source,
            ])}
          />
        )}
      </Section>

      <Section title="Moment matching">
        {calibration.estimation ? (
          <>
            <Typography variant="body2" sx={{ mb: 1 }}>
              Nelder-Mead over {calibration.estimation.parameters.map((p) => p.name).join(', ')}:
              the sum of squared relative gaps fell from{' '}
              {fmt(calibration.estimation.objectiveBefore)} to{' '}
              {fmt(calibration.estimation.objectiveAfter)} in {calibration.estimation.evaluations}{' '}
              model solutions.
            </Typography>
            <SimpleTable
              caption="Estimated parameters"
              header={['Parameter', 'Before', 'Estimate']}
              rows={calibration.estimation.parameters.map((p) => [
                p.name,
                fmt(p.initial),
                fmt(p.estimate),
              ])}
            />
          </>
        ) : (
          <Typography variant="body2">{calibration.estimationNote}</Typography>
        )}
      </Section>

      <Section title={`Impulse responses (one standard deviation, ${run.irfPeriods} periods)`}>
        <Stack spacing={2}>
          {Object.entries(run.irfs).map(([shock, byVariable]) => (
            <LineChartFigure
              key={shock}
              title={`Response to a ${shockLabels.get(shock) ?? shock} (${shock})`}
              x={range(run.irfPeriods)}
              xLabel="Period"
              yLabel="Deviation from steady state"
              series={keyVariables.map((v) => ({ label: v, data: byVariable[v] ?? [] }))}
            />
          ))}
          {Object.keys(run.irfs).length === 0 && (
            <Typography variant="body2">
              The model has no shocks, so it has no impulse responses.
            </Typography>
          )}
        </Stack>
      </Section>

      {theo && (
        <Section title="Theoretical moments (first-order solution)">
          <SimpleTable
            caption="Theoretical moments"
            header={[
              'Variable',
              'Meaning',
              'Steady state',
              'Std. dev.',
              'Autocorr. (1)',
              `Simulated std. dev. (one sample of ${run.simulation.periods} periods)`,
            ]}
            rows={theo.variables.map((v, i) => [
              <code key="v">{v}</code>,
              labels.get(v) ?? '',
              momentCell(theo.mean[i], v, run),
              momentCell(theo.std[i], v, run),
              momentCell(theo.autocorr[0]?.[i], v, run),
              fmt(sim.std[i]),
            ])}
          />
        </Section>
      )}

      {!theo && (
        <Section
          title={`Simulated moments (one simulated sample of ${run.simulation.periods} periods, seed ${run.simulation.seed})`}
        >
          <Typography variant="body2" sx={{ mb: 1 }}>
            The engine computed no theoretical moments for this model; these are the moments of one
            simulation and describe that sample only.
          </Typography>
          <SimpleTable
            caption="Simulated moments"
            header={['Variable', 'Meaning', 'Mean', 'Std. dev.', 'Autocorr. (1)']}
            rows={sim.variables.map((v, i) => [
              <code key="v">{v}</code>,
              labels.get(v) ?? '',
              fmt(sim.mean[i]),
              fmt(sim.std[i]),
              fmt(sim.autocorr[0]?.[i]),
            ])}
          />
        </Section>
      )}

      <Section title="Simulated paths">
        <LabelledSelect
          id="model-path-variable"
          label="Variable"
          value={shownPath}
          options={variables.map((v) => ({
            value: v,
            label: `${v} ${labels.get(v) ? `(${labels.get(v)})` : ''}`,
          }))}
          onChange={setPathVariable}
          minWidth={220}
          sx={{ mb: 1 }}
        />
        <LineChartFigure
          title={`Stochastic simulation of ${shownPath}: ${run.simulation.periods} periods, seed ${run.simulation.seed}`}
          x={range(series.length)}
          xLabel="Period"
          yLabel={shownPath}
          series={[{ label: shownPath, data: series }]}
        />
        {run.transition && transition && (
          <Box sx={{ mt: 2 }}>
            <LineChartFigure
              title={`Perfect-foresight transition of ${shownPath}: ${run.transition.title}`}
              x={range(transition.length, 0)}
              xLabel="Period"
              yLabel={shownPath}
              series={[{ label: shownPath, data: transition }]}
            />
          </Box>
        )}
      </Section>

      {run.comparativeStatics && run.transition && (
        <Section title={`Scenario: ${run.transition.title}`}>
          <SimpleTable
            caption="Comparative statics"
            header={['Variable', 'Initial steady state', 'New steady state', 'Change']}
            rows={run.comparativeStatics.map((c) => [
              c.variable,
              fmt(c.baseline),
              fmt(c.scenario),
              fmt(c.change),
            ])}
          />
        </Section>
      )}

      <Section title="Dynare">
        {calibration.dynare.available ? (
          <>
            <Typography variant="body2" sx={{ mb: 1 }}>
              Dynare ran the exported .mod file under GNU Octave. Largest difference from our
              results: {fmt(calibration.dynare.irfMaxDiff)} in the impulse responses,{' '}
              {fmt(calibration.dynare.steadyStateMaxDiff)} in the steady state,{' '}
              {fmt(calibration.dynare.varianceMaxDiff)} in the variances.
            </Typography>
            {Object.entries(run.irfs)
              .slice(0, 1)
              .map(([shock, byVariable]) => (
                <SimpleTable
                  key={shock}
                  caption={`Impact responses to ${shock}: ours and Dynare's`}
                  header={['Variable', `Impact of ${shock} (ours)`, "Impact (Dynare's)"]}
                  rows={keyVariables.map((v) => [
                    v,
                    fmt(byVariable[v]?.[0]),
                    fmt(calibration.dynare.irfs?.[shock]?.[v]?.[0] ?? 0),
                  ])}
                />
              ))}
          </>
        ) : (
          <Typography variant="body2">{calibration.dynare.reason}</Typography>
        )}
      </Section>
    </Stack>
  );
}
