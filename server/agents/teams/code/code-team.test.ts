import { describe, expect, it } from 'vitest';
import { ORIGIN_LABELS, splitModelPassages } from '../../../../common/provenance';
import {
  isReviewSuccess,
  packageFileName,
  packageReproducibility,
  repairAttemptText,
  reviewScores,
  reviewSignal,
  type GenerationResult,
  type TestResult,
} from '../../../../common/teams/code';
import { DEFAULT_LIMITS } from '../../../engines/sandbox';
import { countTests, numberLines, stripFences, testOutcomeOf } from './code-text';
import { dependenciesOf } from './dependencies';
import { buildReadme, packageFiles, type EditorRun } from './package';
import { readFindings } from './review-findings';
import { safeFileName, workingFilesPrompt } from './working-files';

describe('reviewScores', () => {
  it('takes 3, 1.5 and 0.5 points off a criterion per high, medium and low finding', () => {
    expect(reviewScores([])).toEqual({
      overall: 10,
      criteria: { correctness: 10, clarity: 10, efficiency: 10, reproducibility: 10 },
    });
    const s = reviewScores([
      { criterion: 'correctness', severity: 'high' },
      { criterion: 'correctness', severity: 'medium' },
      { criterion: 'efficiency', severity: 'low' },
    ]);
    expect(s.criteria).toEqual({
      correctness: 5.5,
      clarity: 10,
      efficiency: 9.5,
      reproducibility: 10,
    });
    expect(s.overall).toBe(8.8); // 35 / 4 = 8.75
  });

  it('never goes below 0 on a criterion', () => {
    const many = Array.from({ length: 6 }, () => ({
      criterion: 'clarity' as const,
      severity: 'high' as const,
    }));
    expect(reviewScores(many).criteria.clarity).toBe(0);
    expect(reviewScores(many).overall).toBe(7.5);
  });

  it('shows 7 and up as success', () => {
    expect(isReviewSuccess(7)).toBe(true);
    expect(isReviewSuccess(6.9)).toBe(false);
  });

  it('is never good with correctness under 5 or a high-severity finding open', () => {
    const three = (['high', 'high', 'high'] as const).map((severity) => ({
      criterion: 'correctness' as const,
      severity,
    }));
    const scores = reviewScores(three);
    expect(scores.overall).toBe(7.8);
    const signal = reviewSignal({
      overall_score: scores.overall,
      criteria: scores.criteria,
      findings: three.map((f) => ({ ...f, lines: [], comment: 'x', source: 'model' as const })),
    });
    expect(signal.good).toBe(false);
    expect(signal.reasons).toEqual([
      'correctness is 1, under 5',
      '3 high-severity findings are open',
    ]);
    const clean = reviewScores([{ criterion: 'clarity', severity: 'medium' }]);
    expect(
      reviewSignal({ overall_score: clean.overall, criteria: clean.criteria, findings: [] }).good,
    ).toBe(true);
  });
});

describe('words', () => {
  it('says what a repair changed in words ("the none" never appears)', () => {
    expect(repairAttemptText({ attempt: 1, changed: 'none', outcome: 'still_failing' })).toBe(
      'Attempt 1: the model changed nothing, still failing',
    );
    expect(repairAttemptText({ attempt: 2, changed: 'both', outcome: 'fixed' })).toBe(
      'Attempt 2: the model changed the code and the tests, fixed',
    );
    for (const changed of ['code', 'tests', 'both', 'none'] as const) {
      expect(repairAttemptText({ attempt: 1, changed, outcome: 'fixed' })).not.toMatch(/the none/);
    }
  });
});

describe('test outcomes in words', () => {
  const result = (kind: 'ok' | 'exit' | 'time-limit' | 'unavailable', exitCode: number | null) => ({
    ok: kind === 'ok',
    kind,
    exitCode,
    limits: { ...DEFAULT_LIMITS, timeLimitSeconds: 30 },
    error: kind === 'unavailable' ? 'R is not installed on this server' : undefined,
  });
  const none = { passed: null, failed: null };

  it("explains pytest's exit statuses", () => {
    expect(testOutcomeOf('python', result('exit', 5), none)).toEqual({
      outcome: 'no_tests',
      error:
        "pytest collected no tests: test_main.py has no function whose name starts with test_ (pytest's exit status 5)",
    });
    expect(testOutcomeOf('python', result('exit', 2), none).outcome).toBe('errors');
    expect(testOutcomeOf('python', result('exit', 2), none).error).toMatch(
      /collecting test_main.py failed/,
    );
    expect(testOutcomeOf('python', result('exit', 1), { passed: 2, failed: 1 })).toEqual({
      outcome: 'failures',
      error: "1 test of 3 failed or raised an error (pytest's exit status 1)",
    });
    expect(testOutcomeOf('python', result('ok', 0), { passed: 3, failed: 0 })).toEqual({
      outcome: 'passed',
      error: null,
    });
  });

  it('explains the test scripts of R, Octave and Julia, the time limit and a missing runtime', () => {
    expect(testOutcomeOf('r', result('exit', 1), { passed: 1, failed: 2 })).toEqual({
      outcome: 'failures',
      error:
        "2 checks of 3 failed (lines 'not ok' in the output), and the test script exited with status 1",
    });
    expect(testOutcomeOf('matlab', result('exit', 1), none).error).toBe(
      'The test script test_main.m stopped with an error before reporting its checks (Octave exit status 1); the output shows the error',
    );
    expect(testOutcomeOf('julia', result('exit', 1), none).outcome).toBe('errors');
    expect(testOutcomeOf('python', result('time-limit', null), none)).toEqual({
      outcome: 'time_limit',
      error: 'The tests were stopped: they did not finish within the time limit of 30 s',
    });
    expect(testOutcomeOf('r', result('unavailable', null), none)).toEqual({
      outcome: 'runtime_missing',
      error: 'The tests were not run: R is not installed on this server',
    });
    for (const status of [1, 2, 3, 4, 5]) {
      expect(testOutcomeOf('python', result('exit', status), none).error).not.toMatch(
        /^The program exited with status/,
      );
    }
  });
});

describe('packageReproducibility', () => {
  const base = {
    test_code: 'x',
    test_file: 'test_main.R',
    code_file: 'main.R',
    code_under_test: 'x',
    code_source: 'generated' as const,
    code_run: null,
    repairs: [],
    dependencies: [],
    documentId: null,
  };
  const passed = {
    status: 'passed' as const,
    outcome: 'passed' as const,
    passed: 2,
    failed: 0,
    output: '',
    error: null,
    exitCode: 0,
    durationMs: 1,
  };
  const ran = {
    ok: true,
    kind: 'ok',
    exitCode: 0,
    output: '',
    error: null,
    durationMs: 1,
    figures: [],
  };

  it('is reproducible only when the tests passed and the program ran', () => {
    expect(
      packageReproducibility({ tests: { ...base, code_run: ran, run: passed } }).reproducible,
    ).toBe(true);
    const failedProgram = packageReproducibility({
      tests: {
        ...base,
        code_run: {
          ...ran,
          ok: false,
          kind: 'exit',
          exitCode: 1,
          error: 'The program exited with status 1',
        },
        run: passed,
      },
    });
    expect(failedProgram).toEqual({
      reproducible: false,
      problems: ['The program main.R failed when run: The program exited with status 1'],
    });
    const notRun = packageReproducibility({
      tests: {
        ...base,
        code_run: {
          ...ran,
          ok: false,
          kind: 'unavailable',
          error: 'R is not installed on this server',
        },
        run: {
          ...passed,
          status: 'not_run',
          outcome: 'runtime_missing',
          error: 'The tests were not run: R is not installed on this server',
        },
      },
    });
    expect(notRun.reproducible).toBe(false);
    expect(notRun.problems).toHaveLength(2);
    expect(packageReproducibility({}).reproducible).toBe(false);
  });
});

describe('review answers from a weak model', () => {
  it('reads other names for criteria and severities, and says what it assumed', () => {
    const read = readFindings(
      [
        { criterion: 'Performance', severity: 'critical', lines: [1, 50], comment: 'Slow.' },
        { criterion: 'vibes', severity: 'whatever', lines: [], comment: '' },
      ],
      10,
    );
    expect(read.findings).toEqual([
      { criterion: 'efficiency', severity: 'high', lines: [1], comment: 'Slow.', source: 'model' },
      {
        criterion: 'correctness',
        severity: 'medium',
        lines: [],
        comment: '(The model gave no comment for this finding.)',
        source: 'model',
      },
    ]);
    expect(read.droppedLines).toBe(1);
    expect(read.notes).toHaveLength(4);
  });
});

describe('working files', () => {
  it('names files so the sandbox accepts them, without collisions', () => {
    const taken = new Set<string>();
    expect(safeFileName('GDP per capita (2015 US$)', 'csv', taken)).toBe(
      'gdp_per_capita_2015_us.csv',
    );
    expect(safeFileName('GDP per capita (2015 US$)', 'csv', taken)).toBe(
      'gdp_per_capita_2015_us_2.csv',
    );
    expect(safeFileName('2020 wages', 'csv', taken)).toBe('file_2020_wages.csv');
    expect(safeFileName('économie', 'mod', taken)).toBe('economie.mod');
  });

  it("tells the model where each file is and a dataset's columns", () => {
    const text = workingFilesPrompt([
      {
        kind: 'dataset',
        id: 'd',
        name: 'GDP',
        path: 'data/gdp.csv',
        bytes: 10,
        sha256: 'x',
        columns: ['year', 'gdp'],
        rows: 3,
      },
      {
        kind: 'document',
        id: 'm',
        name: 'rbc.mod',
        path: 'data/rbc.mod',
        bytes: 10,
        sha256: 'y',
        columns: [],
        rows: null,
      },
    ]);
    expect(text).toContain(
      '- data/gdp.csv: the project dataset "GDP", CSV with a header row, 3 rows; columns: year, gdp',
    );
    expect(text).toContain('- data/rbc.mod: the project document "rbc.mod" (a Dynare model file)');
    expect(workingFilesPrompt([])).toBe('');
  });
});

describe('code text', () => {
  it('strips a Markdown fence and keeps one final newline', () => {
    expect(stripFences('```python\nprint(1)\n```')).toBe('print(1)\n');
    expect(stripFences('print(1)\n\n\n')).toBe('print(1)\n');
    expect(stripFences('```\nx <- 1\n```\n')).toBe('x <- 1\n');
  });

  it('numbers lines for the reviewer', () => {
    expect(numberLines('a\nb\n')).toBe('1 | a\n2 | b');
  });

  it("reads pytest's summary and TAP-style lines", () => {
    expect(countTests('python', '..F\n1 failed, 2 passed in 0.12s\n')).toEqual({
      passed: 2,
      failed: 1,
    });
    expect(countTests('python', 'E\n1 error in 0.1s\n')).toEqual({ passed: 0, failed: 1 });
    expect(countTests('python', 'Traceback...')).toEqual({ passed: null, failed: null });
    expect(countTests('r', 'ok - mean\nnot ok - sd\nok - n\n')).toEqual({ passed: 2, failed: 1 });
    expect(countTests('matlab', 'nothing')).toEqual({ passed: null, failed: null });
  });
});

describe('dependenciesOf', () => {
  it('reads Python imports, leaves out the standard library and maps PyPI names', () => {
    const code = [
      'import os, sys',
      'import numpy as np',
      'from scipy.optimize import minimize',
      'import matplotlib.pyplot as plt',
      'from sklearn.linear_model import LinearRegression',
      'from main import f',
      '  import json',
    ].join('\n');
    expect(dependenciesOf('python', code)).toEqual([
      'matplotlib',
      'numpy',
      'scikit-learn',
      'scipy',
    ]);
  });

  it('reads R, Julia and Octave packages', () => {
    expect(
      dependenciesOf(
        'r',
        'library(ggplot2)\nrequire("dplyr")\nstats::lm(y ~ x)\ndata.table::fread("x")',
      ),
    ).toEqual(['data.table', 'dplyr', 'ggplot2']);
    expect(dependenciesOf('julia', 'using Test, DataFrames\nimport Optim: optimize')).toEqual([
      'DataFrames',
      'Optim',
    ]);
    expect(dependenciesOf('matlab', 'pkg load statistics\nx = 1;')).toEqual(['octave-statistics']);
    expect(dependenciesOf('dynare', 'var y;')).toEqual(['dynare']);
  });
});

describe('package', () => {
  const generation: GenerationResult = {
    main_code: 'print(1)\n',
    language: 'python',
    file_name: 'main.py',
    frameworks: [],
    explanation: 'Prints one.',
    execution: null,
    repairs: [],
    working_files: [],
  };
  const tests: TestResult = {
    test_code: 'def test_x():\n    assert True\n',
    test_file: 'test_main.py',
    code_file: 'main.py',
    code_under_test: 'print(2)\n',
    code_source: 'repaired',
    code_run: {
      ok: true,
      kind: 'ok',
      exitCode: 0,
      output: '2\n',
      error: null,
      durationMs: 100,
      figures: [],
    },
    run: {
      status: 'failed',
      passed: 1,
      failed: 1,
      output: '',
      error: '1 test failed',
      exitCode: 1,
      durationMs: 300,
    },
    repairs: [{ attempt: 1, problem: 'x', changed: 'code', outcome: 'still_failing' }],
    dependencies: [],
    documentId: null,
  };
  const input = {
    requirements: 'Print a number.',
    configuration: { language: 'python' as const, frameworks: [], workflowMode: 'quick' as const },
    generation,
    tests,
    date: new Date('2025-03-04T10:00:00Z'),
  };

  it('ships the tested code, its tests, a README and the dependency list', () => {
    const files = packageFiles(input, ['numpy']);
    expect(files.map((f) => f.name)).toEqual([
      'README.md',
      'main.py',
      'test_main.py',
      'requirements.txt',
    ]);
    expect(files[1]!.content).toBe('print(2)\n');
    expect(files[3]!.content).toBe('numpy\n');
  });

  it('says in the README what happened when the tests ran, and how to run them', () => {
    const readme = buildReadme(input, []);
    expect(readme).toContain('on 2025-03-04');
    expect(readme).toContain('python3 -m pytest test_main.py');
    expect(readme).toContain('Tests: **failed** (1 passed, 1 failed)');
    expect(readme).toContain('Attempt 1: the model changed the code, still failing');
    expect(readme).toContain('Review: not part of this run (quick mode).');
  });

  it('says the package is not reproducible when its tests failed, and why', () => {
    const readme = buildReadme(input, []);
    expect(readme).toContain('Not shown as reproducible:');
    expect(readme).toContain("- The package's tests failed in the sandbox: 1 test failed");
    expect(readme).not.toMatch(/^Reproducible:/m);
  });

  it('counts the review findings in words: 1 finding, 2 findings', () => {
    const finding = {
      criterion: 'clarity' as const,
      severity: 'low' as const,
      lines: [1],
      comment: 'Name the number.',
      source: 'model' as const,
    };
    const review = (n: number) => ({
      skipped: false,
      overall_score: 9.5,
      criteria: { correctness: 10, clarity: 9.5, efficiency: 10, reproducibility: 10 },
      findings: Array.from({ length: n }, () => finding),
      summary: 'Fine.',
    });
    const one = buildReadme({ ...input, review: review(1) }, []);
    expect(one).toContain('computed from 1 finding.');
    expect(buildReadme({ ...input, review: review(2) }, [])).toContain('computed from 2 findings.');
    expect(one).not.toContain('(s)');
  });

  it("marks the model's explanation as the model's", () => {
    const passages = splitModelPassages(buildReadme(input, [])).filter((p) => p.kind === 'model');
    expect(passages).toEqual([{ kind: 'model', title: 'About the code', text: 'Prints one.' }]);
    expect(buildReadme(input, [])).toContain(ORIGIN_LABELS.model);
  });

  const run: EditorRun = {
    code: 'import matplotlib\nprint(3)\n',
    language: 'python',
    ranAt: '2025-03-04T11:00:00.000Z',
    output: '3\n',
    error: null,
    kind: 'ok',
    exitCode: 0,
    durationMs: 900,
    figures: [{ name: 'fit.png', mimeType: 'image/png', base64: 'iVBORw0KGgo=', bytes: 8 }],
    workingFiles: ['data/gdp.csv'],
  };

  it("holds the editor's code, the session's code, and the last run's output and figures", () => {
    const files = packageFiles({ ...input, editorCode: run.code, lastRun: run }, []);
    const byName = Object.fromEntries(files.map((f) => [f.name, f.content]));
    expect(byName['main.py']).toBe(run.code);
    expect(byName['session/main.py']).toBe('print(2)\n');
    expect(String(byName['results/output.txt'])).toContain('3\n');
    expect(byName['results/fit.png']).toEqual(Buffer.from('iVBORw0KGgo=', 'base64'));
    // The run's code is the package's code: not shipped twice.
    expect(byName['results/main.py']).toBeUndefined();
    const readme = String(byName['README.md']);
    expect(readme).toContain('changed by the researcher after the session');
    expect(readme).toContain('`main.py` exactly as it is in this package');
    expect(readme).toContain('It read data/gdp.csv.');
  });

  it('keeps the code of a run made before the last edit, and says so', () => {
    const files = packageFiles({ ...input, editorCode: 'print(4)\n', lastRun: run }, []);
    const byName = Object.fromEntries(files.map((f) => [f.name, f.content]));
    expect(byName['main.py']).toBe('print(4)\n');
    expect(byName['results/main.py']).toBe(run.code);
    expect(String(byName['README.md'])).toContain(
      'an earlier version of the code, kept as `results/main.py`',
    );
  });

  it('names the download with the date', () => {
    expect(packageFileName('r', new Date('2025-03-04T10:00:00Z'))).toBe(
      'code-package-r-2025-03-04.zip',
    );
  });
});
