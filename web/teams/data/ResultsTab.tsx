import { Link as RouterLink } from 'react-router';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import {
  ANALYSIS_TYPE_LABELS,
  type AnalysisPhaseResult,
  type AnalysisResult,
  type SourceResult,
} from '../../../common/teams/data';
import { asSentence } from '../../../common/text';
import { fmtNumber } from '../../components/formatNumber';
import { OriginMark } from '../../components/OriginMark';
import { AlertList } from './ProfileTab';

const pct = (v: number | null) => (v === null ? '–' : `${(v * 100).toFixed(1)}%`);

function DataTable({ label, head, rows }: { label: string; head: string[]; rows: ReactNode[][] }) {
  return (
    <TableContainer component={Paper} variant="outlined" tabIndex={0}>
      <Table size="small" aria-label={label}>
        <TableHead>
          <TableRow>
            {head.map((h, i) => (
              <TableCell key={h} align={i === 0 ? 'left' : 'right'}>
                {h}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((r, i) => (
            <TableRow key={i}>
              {r.map((cell, j) =>
                j === 0 ? (
                  <TableCell key={j} component="th" scope="row">
                    {cell}
                  </TableCell>
                ) : (
                  <TableCell key={j} align="right">
                    {cell}
                  </TableCell>
                ),
              )}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div>
      <Typography variant="subtitle1" component="h3" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {children}
    </div>
  );
}

function Analysis({ analysis }: { analysis: AnalysisResult }) {
  switch (analysis.type) {
    case 'profile':
      return (
        <Section title="Completeness by column">
          <DataTable
            label="Completeness"
            head={['Column', 'Kind', 'Type', 'Values', 'Missing', 'Distinct']}
            rows={analysis.columns.map((c) => [
              c.column,
              c.kind,
              c.storageType,
              fmtNumber(c.count),
              `${fmtNumber(c.missing)} (${pct(c.missingShare)})`,
              fmtNumber(c.distinct),
            ])}
          />
        </Section>
      );
    case 'descriptive':
      return (
        <Stack spacing={3}>
          <Section title="Summary statistics">
            <DataTable
              label="Summary statistics"
              head={[
                'Column',
                'N',
                'Mean',
                'SD',
                'Min',
                'P25',
                'Median',
                'P75',
                'Max',
                'Skew',
                'Kurtosis',
              ]}
              rows={analysis.numeric.map((r) => [
                r.column,
                fmtNumber(r.count),
                fmtNumber(r.mean),
                fmtNumber(r.sd),
                fmtNumber(r.min),
                fmtNumber(r.p25),
                fmtNumber(r.median),
                fmtNumber(r.p75),
                fmtNumber(r.max),
                fmtNumber(r.skewness),
                fmtNumber(r.kurtosis),
              ])}
            />
          </Section>
          {analysis.byGroup && (
            <Section
              title={`By ${analysis.byGroup.groupColumn}${analysis.byGroup.truncated ? ' (largest groups)' : ''}`}
            >
              <DataTable
                label={`Means by ${analysis.byGroup.groupColumn}`}
                head={[
                  analysis.byGroup.groupColumn,
                  'Rows',
                  ...(analysis.byGroup.groups[0]?.stats.map((s) => `Mean ${s.column}`) ?? []),
                ]}
                rows={analysis.byGroup.groups.map((g) => [
                  String(g.group),
                  fmtNumber(g.count),
                  ...g.stats.map((s) => fmtNumber(s.mean)),
                ])}
              />
            </Section>
          )}
          {analysis.categorical.length > 0 && (
            <Section title="Categories">
              <DataTable
                label="Categorical columns"
                head={['Column', 'Distinct', 'Most frequent']}
                rows={analysis.categorical.map((c) => [
                  c.column,
                  fmtNumber(c.distinct),
                  c.top
                    .slice(0, 3)
                    .map((t) => `${String(t.value)} (${fmtNumber(t.count)})`)
                    .join(', '),
                ])}
              />
            </Section>
          )}
        </Stack>
      );
    case 'exploratory':
      return (
        <Stack spacing={3}>
          <Section title="Distributions">
            <DataTable
              label="Distributions"
              head={[
                'Column',
                'Shape',
                'Skewness',
                'Kurtosis',
                'Outliers (IQR)',
                'Outliers (|z| > 3)',
              ]}
              rows={analysis.distributions.map((d) => [
                d.column,
                d.shape,
                fmtNumber(d.skewness),
                fmtNumber(d.kurtosis),
                fmtNumber(d.outliersIqr),
                fmtNumber(d.outliersZScore),
              ])}
            />
          </Section>
          <Section title="Strongest correlations">
            <DataTable
              label="Strongest correlations"
              head={['Pair', 'Pearson', 'Spearman']}
              rows={analysis.strongestCorrelations.map((c) => [
                `${c.a} – ${c.b}`,
                fmtNumber(c.pearson),
                fmtNumber(c.spearman),
              ])}
            />
          </Section>
          {analysis.trends && (
            <Section title={`Trends over ${analysis.trends.index} (${analysis.trends.frequency})`}>
              <DataTable
                label="Trends"
                head={[
                  'Column',
                  'First',
                  'Last',
                  'Change',
                  'Change %',
                  'Slope / period',
                  'Direction',
                  'Lag-1 autocorrelation',
                ]}
                rows={analysis.trends.columns.map((t) => [
                  t.column,
                  `${fmtNumber(t.first.value)} (${t.first.period})`,
                  `${fmtNumber(t.last.value)} (${t.last.period})`,
                  fmtNumber(t.change),
                  pct(t.pctChange),
                  fmtNumber(t.slopePerPeriod),
                  t.direction,
                  fmtNumber(t.lag1Autocorrelation),
                ])}
              />
            </Section>
          )}
        </Stack>
      );
    case 'quality':
      return (
        <Stack spacing={3}>
          <Typography>
            Completeness {pct(analysis.score.completeness)} · unique rows{' '}
            {pct(analysis.score.uniqueness)} · columns without a high-severity alert{' '}
            {pct(analysis.score.columnsWithoutHighAlerts)}
          </Typography>
          {analysis.issues.length === 0 ? (
            <AlertList alerts={[]} />
          ) : (
            <DataTable
              label="Quality issues and suggested fixes"
              head={['Issue', 'Severity', 'Suggested fix']}
              rows={analysis.issues.map((i) => [i.message, i.severity, i.fix])}
            />
          )}
        </Stack>
      );
  }
}

/**
 * The model's paragraph, marked as its writing (never styled as a computed result), or the note
 * that says why there is none.
 */
function Interpretation({ result }: { result: AnalysisPhaseResult }) {
  if (!result.interpretation) {
    return result.interpretationNote ? (
      <Typography variant="body2" color="textSecondary" data-testid="interpretation-note">
        {result.interpretationNote}
      </Typography>
    ) : null;
  }
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-label="Interpretation written by the model"
      sx={{ p: 2, borderStyle: 'dashed', borderColor: 'warning.main' }}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1, flexWrap: 'wrap' }}>
        <Typography variant="subtitle2" component="h3">
          Interpretation
        </Typography>
        <OriginMark origin="model" />
      </Stack>
      <Typography variant="body2" sx={{ fontStyle: 'italic' }}>
        {result.interpretation}
      </Typography>
      <Typography variant="caption" color="textSecondary" component="p" sx={{ mt: 1 }}>
        A reading of the computed numbers below by the language model, not a result; references to
        works this session did not retrieve were removed.
      </Typography>
    </Paper>
  );
}

/** The Results tab: where the data came from, the computed analysis and the interpretation. */
export function ResultsTab({
  source,
  result,
}: {
  source: SourceResult | undefined;
  result: AnalysisPhaseResult | undefined;
}) {
  return (
    <Stack spacing={3}>
      {source && (
        <Typography variant="body2" color="textSecondary">
          {source.description} Licence: {asSentence(source.license)} Cite as: {source.citation}
        </Typography>
      )}
      {!result ? (
        <Typography color="textSecondary">
          The results of the analysis appear here once the team has run it (after the profile
          review).
        </Typography>
      ) : (
        <>
          <Typography variant="h6" component="h2">
            {ANALYSIS_TYPE_LABELS[result.analysisType]}
          </Typography>
          <Interpretation result={result} />
          {result.documentId && (
            <Typography variant="body2">
              The profile and its data dictionary are saved as a document:{' '}
              <Link
                component={RouterLink}
                to={`/app/documentation?doc=${encodeURIComponent(result.documentId)}`}
              >
                open it in Documentation
              </Link>
              .
            </Typography>
          )}
          <Analysis analysis={result.analysis} />
        </>
      )}
    </Stack>
  );
}
