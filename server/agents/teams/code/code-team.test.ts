import { describe, expect, it } from 'vitest';
import {
  isReviewSuccess,
  packageFileName,
  reviewScores,
  type GenerationResult,
  type TestResult,
} from '../../../../common/teams/code';
import { countTests, numberLines, stripFences } from './code-text';
import { dependenciesOf } from './dependencies';
import { buildReadme, packageFiles } from './package';

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
  };
  const tests: TestResult = {
    test_code: 'def test_x():\n    assert True\n',
    test_file: 'test_main.py',
    code_file: 'main.py',
    code_under_test: 'print(2)\n',
    code_source: 'repaired',
    run: {
      status: 'failed',
      passed: 1,
      failed: 1,
      output: '',
      error: '1 test(s) failed',
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
    expect(readme).toContain('Attempt 1: changed the code; still failing');
    expect(readme).toContain('Review: not part of this run (quick mode).');
  });

  it('names the download with the date', () => {
    expect(packageFileName('r', new Date('2025-03-04T10:00:00Z'))).toBe(
      'code-package-r-2025-03-04.zip',
    );
  });
});
