import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  repairAttemptText,
  REVIEW_CRITERIA,
  REVIEW_SCORING_RULE,
  REVIEW_SIGNAL_RULE,
  reviewSignal,
  type CodeLanguage,
  type CodeResults,
  type OptimizationResult,
  type RepairAttempt,
  type ReviewResult,
  type TestResult,
} from '../../../common/teams/code';
import { OriginMark } from '../../components/OriginMark';
import { LazyCodeEditor as CodeEditor } from './LazyCodeEditor';
import { preSx } from './ExecutionPanel';
import { Reproducibility } from './Reproducibility';

/** A heading with the model's mark: what follows was written by the model and not checked. */
function ModelHeading({ children }: { children: string }) {
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
      <Typography variant="subtitle2" component="h3">
        {children}
      </Typography>
      <OriginMark origin="model" />
    </Stack>
  );
}

function Waiting({ what }: { what: string }) {
  return (
    <Typography variant="body2" color="textSecondary">
      {what} appears here when the team reaches that step.
    </Typography>
  );
}

function Repairs({ repairs }: { repairs: RepairAttempt[] }) {
  if (repairs.length === 0) return null;
  return (
    <Box sx={{ mt: 2 }}>
      <Typography variant="subtitle2" component="h3">
        Repairs
      </Typography>
      <List dense>
        {repairs.map((r) => (
          <ListItem key={r.attempt} disableGutters>
            <ListItemText primary={repairAttemptText(r)} secondary={r.problem.split('\n')[0]} />
          </ListItem>
        ))}
      </List>
    </Box>
  );
}

/**
 * Review: the score, good (green) only by the rule that also looks at correctness and at open
 * high-severity findings (said on screen, with what held it back), per criterion, and the
 * findings, the model's marked as its own.
 */
export function ReviewTab({ review }: { review?: ReviewResult }) {
  if (!review) return <Waiting what="The review" />;
  if (review.skipped || review.overall_score === null) {
    return <Alert severity="info">Code Review is not part of a quick run.</Alert>;
  }
  const signal = reviewSignal(review);
  const modelFindings = review.findings.filter((f) => f.source === 'model').length;
  return (
    <Stack spacing={2}>
      <Alert
        severity={signal.good ? 'success' : 'warning'}
        data-testid="review-score"
        icon={false}
        sx={{ alignItems: 'center' }}
      >
        <Typography variant="h6" component="p">
          Overall score: {review.overall_score} / 10
        </Typography>
        {!signal.good && (
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            Not shown as good: {signal.reasons.join('; ')}.
          </Typography>
        )}
        <Typography variant="body2">
          {REVIEW_SCORING_RULE} {REVIEW_SIGNAL_RULE}
        </Typography>
      </Alert>
      {review.criteria && (
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
          {REVIEW_CRITERIA.map((c) => (
            <Chip key={c} label={`${c}: ${review.criteria![c]}`} variant="outlined" />
          ))}
        </Stack>
      )}
      <Box>
        <Stack
          direction="row"
          spacing={1}
          useFlexGap
          sx={{ alignItems: 'center', flexWrap: 'wrap' }}
        >
          <Typography variant="subtitle2" component="h3">
            Findings ({review.findings.length})
          </Typography>
          {modelFindings > 0 && <OriginMark origin="model" />}
        </Stack>
        {review.findings.length === 0 ? (
          <Typography variant="body2" color="textSecondary">
            No findings.
          </Typography>
        ) : (
          <List dense>
            {review.findings.map((f, i) => (
              <ListItem key={i} disableGutters alignItems="flex-start">
                <ListItemText
                  primary={f.comment}
                  secondary={[
                    f.criterion,
                    f.severity,
                    f.lines.length > 0 ? `lines ${f.lines.join(', ')}` : null,
                    f.source === 'sandbox' ? 'from running the code' : 'written by the model',
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                />
              </ListItem>
            ))}
          </List>
        )}
      </Box>
      {review.summary && (
        <Box>
          <ModelHeading>Reviewer's summary</ModelHeading>
          <Typography variant="body2">{review.summary}</Typography>
        </Box>
      )}
    </Stack>
  );
}

export function OptimizedTab({
  optimization,
  language,
}: {
  optimization?: OptimizationResult;
  language: CodeLanguage;
}) {
  if (!optimization) return <Waiting what="The optimized code" />;
  if (optimization.skipped) {
    return <Alert severity="info">Optimization is not part of a quick run.</Alert>;
  }
  if (optimization.optimized_code === null) {
    return (
      <Alert severity="warning">
        {optimization.note ?? 'The model gave no optimized code; the generated code is kept.'}
      </Alert>
    );
  }
  const exec = optimization.execution;
  return (
    <Stack spacing={2}>
      {exec && (
        <Alert severity={exec.ok ? 'success' : exec.kind === 'unavailable' ? 'warning' : 'error'}>
          {exec.ok ? 'The optimized code ran without error.' : exec.error}
        </Alert>
      )}
      <CodeEditor
        value={optimization.optimized_code}
        language={language}
        readOnly
        label="Optimized code"
      />
      {optimization.changes.length > 0 && (
        <Box>
          <ModelHeading>Changes</ModelHeading>
          <List dense>
            {optimization.changes.map((c, i) => (
              <ListItem key={i} disableGutters>
                <ListItemText primary={c} />
              </ListItem>
            ))}
          </List>
        </Box>
      )}
      <Repairs repairs={optimization.repairs} />
    </Stack>
  );
}

const TEST_SEVERITY = { passed: 'success', failed: 'error', not_run: 'warning' } as const;

/**
 * Tests: how the run ended in words (the runner's exit status explained, not a number), whether
 * the package reproduces, the tests and their output, and the repairs.
 */
export function TestsTab({
  tests,
  results,
  language,
}: {
  tests?: TestResult;
  results: CodeResults;
  language: CodeLanguage;
}) {
  if (!tests) return <Waiting what="The tests" />;
  const { run } = tests;
  const counts = run.passed !== null ? ` ${run.passed} passed, ${run.failed ?? 0} failed.` : '';
  return (
    <Stack spacing={2}>
      <Alert severity={TEST_SEVERITY[run.status]} data-testid="test-status">
        {run.status === 'passed'
          ? `Tests passed in the sandbox.${counts}`
          : run.status === 'failed'
            ? `Tests failed in the sandbox.${counts} ${run.error ?? ''}`
            : run.outcome === 'not_written'
              ? (run.error ?? 'The model wrote no tests.')
              : `Tests were not run: ${(run.error ?? 'the sandbox is unavailable').replace(/^The tests were not run: /, '')}`}
      </Alert>
      <Box>
        <Reproducibility results={results} />
      </Box>
      <Typography variant="body2" color="textSecondary">
        {tests.test_file}, run against {tests.code_file} (
        {tests.code_source === 'repaired'
          ? 'code repaired after failing tests'
          : `${tests.code_source} code`}
        )
      </Typography>
      {tests.test_code && (
        <CodeEditor value={tests.test_code} language={language} readOnly label="Test code" />
      )}
      {run.output && (
        <Box>
          <Typography variant="subtitle2" component="h3">
            Test output
          </Typography>
          <Box component="pre" sx={preSx} data-testid="test-output">
            {run.output}
          </Box>
        </Box>
      )}
      <Repairs repairs={tests.repairs} />
    </Stack>
  );
}
