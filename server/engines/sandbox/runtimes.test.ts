import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CodeLanguage } from '../../../common/settings';
import { createSandbox, detectRuntime, RUNTIMES } from '.';

/**
 * Each installed runtime runs real code in the sandbox: output, a computed number, a figure,
 * a failing program and tests (CI installs every Debian runtime; Julia has no Debian package).
 */

const hasBwrap = existsSync('/usr/bin/bwrap') || existsSync('/usr/local/bin/bwrap');
const sandbox = createSandbox();

function skipReason(language: CodeLanguage): string {
  if (!hasBwrap) return ' (skipped: bubblewrap is not installed)';
  const status = detectRuntime(RUNTIMES[language]);
  return status.available ? '' : ` (skipped: ${status.message})`;
}

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString('base64').slice(0, 4);

const python = skipReason('python');
describe.skipIf(python !== '')(`Python runtime${python}`, () => {
  it('prints, computes with numpy, pandas and statsmodels', async () => {
    const result = await sandbox.run({
      language: 'python',
      code: [
        'import numpy as np, pandas as pd, statsmodels.api as sm',
        'x = np.arange(20.0)',
        'df = pd.DataFrame({"x": x, "y": 2.5 * x + 1})',
        'fit = sm.OLS(df["y"], sm.add_constant(df["x"])).fit()',
        'print("slope=%.3f const=%.3f" % (fit.params["x"], fit.params["const"]))',
      ].join('\n'),
    });
    expect(result).toMatchObject({ ok: true, kind: 'ok', exitCode: 0 });
    expect(result.output).toBe('slope=2.500 const=1.000\n');
  });

  it('returns a figure saved by the program, and one left open after plt.show()', async () => {
    const saved = await sandbox.run({
      language: 'python',
      code: 'import matplotlib.pyplot as plt\nplt.plot([1, 2, 3])\nplt.savefig("line.png")\nplt.savefig("line.svg")\n',
    });
    expect(saved.kind).toBe('ok');
    expect(saved.figures.map((f) => [f.name, f.mimeType])).toEqual([
      ['line.png', 'image/png'],
      ['line.svg', 'image/svg+xml'],
    ]);
    expect(saved.figures[0]!.base64.startsWith(PNG_MAGIC)).toBe(true);
    expect(Buffer.from(saved.figures[1]!.base64, 'base64').toString()).toContain('<svg');

    const shown = await sandbox.run({
      language: 'python',
      code: 'import matplotlib.pyplot as plt\nplt.plot([3, 1])\nplt.figure()\nplt.bar([1], [2])\nplt.show()\n',
    });
    expect(shown.kind).toBe('ok');
    expect(shown.output).toBe('');
    expect(shown.figures.map((f) => f.name)).toEqual(['figure_1.png', 'figure_2.png']);
  });

  it('starts Python without importing anything for the figure hook until pyplot is imported', async () => {
    // Every run loads the engine's sitecustomize.py; it used to import threading and re (a third
    // of a sandboxed print's CPU). -X importtime lists what each import pulled in before it.
    const result = await sandbox.run({
      language: 'python',
      code: [
        'import subprocess, sys',
        'err = subprocess.run([sys.executable, "-X", "importtime", "-c", "pass"],',
        '                     capture_output=True, text=True).stderr.splitlines()',
        'rows = []',
        'for line in err:',
        '    parts = line.split("|")',
        '    if line.startswith("import time:") and len(parts) == 3 and "package" not in parts[2]:',
        '        rows.append((len(parts[2]) - len(parts[2].lstrip()), parts[2].strip()))',
        'i = [name for _, name in rows].index("sitecustomize")',
        'nested = []',
        'for depth, name in reversed(rows[:i]):',
        '    if depth <= rows[i][0]:',
        '        break',
        '    nested.append(name)',
        'print("sitecustomize imports:", sorted(nested))',
      ].join('\n'),
    });
    expect(result).toMatchObject({ ok: true, kind: 'ok' });
    expect(result.output).toBe('sitecustomize imports: []\n');
  });

  it('reports a failing program with its traceback', async () => {
    const result = await sandbox.run({ language: 'python', code: 'print("before")\n1 / 0\n' });
    expect(result).toMatchObject({ ok: false, kind: 'exit', exitCode: 1 });
    expect(result.error).toBe('The program exited with status 1');
    expect(result.output).toMatch(/^before\n/);
    expect(result.output).toMatch(/ZeroDivisionError/);
  });

  it('caps figures by size and count', async () => {
    const result = await sandbox.run({
      language: 'python',
      code: 'for i in range(4):\n    open("f%d.png" % i, "wb").write(b"\\x89PNG" + b"0" * (i * 1000))\n',
      limits: { maxFigures: 3, maxFigureBytes: 1500 },
    });
    expect(result.kind).toBe('ok');
    expect(result.figures.map((f) => f.name)).toEqual(['f0.png', 'f1.png']);
    expect(result.figuresSkipped).toEqual(['f2.png', 'f3.png']);
  });

  it('runs pytest tests against the main file: passing and failing', async () => {
    const code = 'def mean(xs):\n    return sum(xs) / len(xs)\n';
    const pass = await sandbox.run({
      language: 'python',
      code,
      mode: 'test',
      testFile: 'test_main.py',
      files: {
        'test_main.py':
          'from main import mean\n\ndef test_mean():\n    assert mean([1, 2, 3]) == 2\n',
      },
    });
    expect(pass.kind).toBe('ok');
    expect(pass.output).toMatch(/1 passed/);
    const fail = await sandbox.run({
      language: 'python',
      code,
      mode: 'test',
      testFile: 'test_main.py',
      files: {
        'test_main.py': 'from main import mean\n\ndef test_mean():\n    assert mean([1, 2]) == 2\n',
      },
    });
    expect(fail).toMatchObject({ ok: false, kind: 'exit', exitCode: 1 });
    expect(fail.output).toMatch(/1 failed/);
  });
});

const r = skipReason('r');
describe.skipIf(r !== '')(`R runtime${r}`, () => {
  it('prints a regression and returns the plot it drew as PNG', async () => {
    const result = await sandbox.run({
      language: 'r',
      code: 'fit <- lm(dist ~ speed, data = cars)\ncat(sprintf("slope=%.4f\\n", coef(fit)[2]))\nplot(cars)\n',
    });
    expect(result).toMatchObject({ ok: true, kind: 'ok' });
    expect(result.output).toBe('slope=3.9324\n');
    expect(result.figures.map((f) => f.name)).toEqual(['Rplot001.png']);
    expect(result.figures[0]!.base64.startsWith(PNG_MAGIC)).toBe(true);
  });

  it('runs a test script that fails with stopifnot', async () => {
    const result = await sandbox.run({
      language: 'r',
      code: 'double <- function(x) 2 * x\n',
      mode: 'test',
      testFile: 'test_main.R',
      files: { 'test_main.R': 'source("main.R")\nstopifnot(double(2) == 5)\n' },
    });
    expect(result).toMatchObject({ ok: false, kind: 'exit', exitCode: 1 });
    expect(result.output).toMatch(/double\(2\) == 5 is not TRUE/);
  });
});

const matlab = skipReason('matlab');
describe.skipIf(matlab !== '')(`MATLAB code through Octave${matlab}`, () => {
  it('runs a script and returns the figure it left open', async () => {
    const result = await sandbox.run({
      language: 'matlab',
      code: 'A = [2 1; 1 3];\nfprintf("det=%.1f\\n", det(A));\nplot(1:10, (1:10).^2);\n',
    });
    expect(result).toMatchObject({ ok: true, kind: 'ok' });
    expect(result.output).toBe('det=5.0\n');
    expect(result.figures.map((f) => f.name)).toEqual(['figure_1.png']);
  });

  it('reports an error with a non-zero status', async () => {
    const result = await sandbox.run({ language: 'matlab', code: 'x = undefined_function(1);\n' });
    expect(result).toMatchObject({ ok: false, kind: 'exit', exitCode: 1 });
    expect(result.output).toMatch(/'undefined_function' undefined/);
  });
});

const RBC = `var y c k;
varexo e;
parameters alpha beta delta;
alpha = 0.33; beta = 0.99; delta = 0.025;
model;
1/c = beta*(1/c(+1))*(alpha*k^(alpha-1) + 1 - delta);
y = k(-1)^alpha*exp(e);
k = y - c + (1-delta)*k(-1);
end;
initval;
k = 30; c = 2; y = 3; e = 0;
end;
steady;
shocks;
var e; stderr 0.01;
end;
stoch_simul(order=1, irf=10);
`;

const dynare = skipReason('dynare');
describe.skipIf(dynare !== '')(`Dynare under Octave${dynare}`, () => {
  it('solves a model and prints its steady state and moments', async () => {
    const result = await sandbox.run({ language: 'dynare', code: RBC });
    expect(result).toMatchObject({ ok: true, kind: 'ok' });
    expect(result.output).toMatch(/STEADY-STATE RESULTS/);
    expect(result.output).toMatch(/k\s+28\.34/);
    expect(result.figures).toEqual([]);
  });

  it("runs tests against the model's results (oo_) in the same session", async () => {
    const test = (bound: string) =>
      sandbox.run({
        language: 'dynare',
        code: RBC,
        mode: 'test',
        testFile: 'test_model.m',
        files: {
          'test_model.m': `assert(oo_.steady_state(3) > ${bound});\ndisp('tests passed');\n`,
        },
      });
    const pass = await test('28');
    expect(pass.kind).toBe('ok');
    expect(pass.output).toMatch(/tests passed/);
    const fail = await test('29');
    expect(fail).toMatchObject({ ok: false, kind: 'exit' });
    expect(fail.output).toMatch(/assert .* failed/);
  });
});

describe('Julia', () => {
  const juliaInstalled = detectRuntime(RUNTIMES.julia).available;
  it.skipIf(!hasBwrap || juliaInstalled)(
    'answers with what is missing when Julia is not installed' +
      (!hasBwrap
        ? ' (skipped: bubblewrap is not installed)'
        : juliaInstalled
          ? ' (skipped: Julia is installed here)'
          : ''),
    async () => {
      const result = await sandbox.run({ language: 'julia', code: 'println(1)' });
      expect(result).toMatchObject({ ok: false, kind: 'unavailable' });
      expect(result.error).toMatch(/Julia is not installed/);
      expect(result.error).toMatch(/julia/);
    },
  );
});

describe('status', () => {
  const noBwrap = hasBwrap ? '' : ' (skipped: bubblewrap is not installed)';
  it.skipIf(!hasBwrap)(`lists every runtime and whether it is present${noBwrap}`, async () => {
    const status = await sandbox.status();
    expect(status.available).toBe(true);
    expect(status.runtimes.map((rt) => rt.language).sort()).toEqual([
      'dynare',
      'julia',
      'matlab',
      'python',
      'r',
    ]);
    for (const rt of status.runtimes) {
      expect(rt.available).toBe(detectRuntime(RUNTIMES[rt.language]).available);
      if (!rt.available) expect(rt.message).toMatch(/not installed/);
    }
  });
});
