import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  REVIEW_SIGNAL_RULE,
  reviewScores,
  type CodeResults,
  type ReviewFinding,
  type TestResult,
} from '../../../common/teams/code';
import { Reproducibility } from './Reproducibility';
import { ReviewTab } from './ResultTabs';

afterEach(cleanup);

const ran = {
  ok: true,
  kind: 'ok',
  exitCode: 0,
  output: '',
  error: null,
  durationMs: 1,
  figures: [],
};

function tests(status: 'passed' | 'failed'): TestResult {
  return {
    test_code: 'def test_x():\n    assert True\n',
    test_file: 'test_main.py',
    code_file: 'main.py',
    code_under_test: 'print(1)\n',
    code_source: 'generated',
    code_run: ran,
    run: {
      status,
      outcome: status === 'passed' ? 'passed' : 'failures',
      passed: status === 'passed' ? 1 : 0,
      failed: status === 'passed' ? 0 : 1,
      output: '',
      error:
        status === 'passed'
          ? null
          : "1 test of 1 failed or raised an error (pytest's exit status 1)",
      exitCode: status === 'passed' ? 0 : 1,
      durationMs: 10,
    },
    repairs: [],
    dependencies: [],
    documentId: null,
  };
}

describe('Reproducibility', () => {
  it('shows the Reproducible badge only when the tests passed and the program ran', () => {
    const { rerender } = render(<Reproducibility results={{ tests: tests('passed') }} />);
    expect(screen.getByTestId('reproducible-badge').textContent).toBe('Reproducible');

    rerender(<Reproducibility results={{ tests: tests('failed') }} />);
    expect(screen.queryByTestId('reproducible-badge')).toBeNull();
    expect(screen.getByTestId('not-reproducible').textContent).toContain(
      "The package's tests failed in the sandbox: 1 test of 1 failed",
    );

    const brokenProgram: CodeResults = {
      tests: {
        ...tests('passed'),
        code_run: { ...ran, ok: false, kind: 'exit', error: 'The program exited with status 1' },
      },
    };
    rerender(<Reproducibility results={brokenProgram} />);
    expect(screen.queryByTestId('reproducible-badge')).toBeNull();
    expect(screen.getByTestId('not-reproducible').textContent).toContain(
      'The program main.py failed when run',
    );
  });

  it('says nothing before the tests have finished', () => {
    const { container } = render(<Reproducibility results={{}} />);
    expect(container.textContent).toBe('');
  });
});

describe('ReviewTab', () => {
  const findings: ReviewFinding[] = [1, 2, 3].map((i) => ({
    criterion: 'correctness',
    severity: 'high',
    lines: [i],
    comment: `Problem ${i}.`,
    source: 'model',
  }));

  it('never shows a 7.8 with correctness 1 and three high findings as good, and says why', () => {
    const scores = reviewScores(findings);
    render(
      <ReviewTab
        review={{
          skipped: false,
          overall_score: scores.overall,
          criteria: scores.criteria,
          findings,
          summary: 'Looks fine.',
        }}
      />,
    );
    const score = screen.getByTestId('review-score');
    expect(score.textContent).toContain('Overall score: 7.8 / 10');
    expect(score.className).toMatch(/Warning/);
    expect(score.textContent).toContain(
      'Not shown as good: correctness is 1, under 5; 3 high-severity findings are open.',
    );
    expect(score.textContent).toContain(REVIEW_SIGNAL_RULE);
    // The findings and the summary carry the model's mark.
    expect(screen.getAllByText('Written by the model, not checked').length).toBeGreaterThanOrEqual(
      2,
    );
  });

  it('shows a clean review as good', () => {
    const scores = reviewScores([]);
    render(
      <ReviewTab
        review={{
          skipped: false,
          overall_score: scores.overall,
          criteria: scores.criteria,
          findings: [],
          summary: '',
        }}
      />,
    );
    expect(screen.getByTestId('review-score').className).toMatch(/Success/);
  });
});
