import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ShockCorrelation } from '../../../common/teams/model';
import type { CompiledModel } from './compile';
import { toModFile, modFileName } from './dynare';
import { ModelError } from './errors';

/**
 * Runs an exported model in Dynare under GNU Octave (when both are installed) and reads
 * Dynare's results back: steady state, impulse responses, theoretical moments and the time
 * Dynare's stoch_simul takes (tic/toc inside Octave, start-up and preprocessing excluded).
 * The .mod file is the exact export, with an Octave call appended that writes the results to
 * a text file; the run happens in a fresh temporary directory that is removed afterwards.
 */

export interface DynareInstallation {
  octave: string;
  /** Directory holding dynare.m. */
  matlabDir: string;
}

const OCTAVE_CANDIDATES = ['/usr/bin/octave', '/usr/local/bin/octave', '/usr/bin/octave-cli'];
const DYNARE_CANDIDATES = [
  '/usr/lib/dynare/matlab',
  '/usr/share/dynare/matlab',
  '/usr/local/lib/dynare/matlab',
];

/** Octave and Dynare if both are installed in the usual (Debian) places. */
export function findDynare(): DynareInstallation | null {
  const octave = OCTAVE_CANDIDATES.find((p) => existsSync(p));
  const matlabDir = DYNARE_CANDIDATES.find((p) => existsSync(path.join(p, 'dynare.m')));
  return octave && matlabDir ? { octave, matlabDir } : null;
}

/** Why Dynare cannot run here, or null when it can. */
export function dynareMissingReason(): string | null {
  const octave = OCTAVE_CANDIDATES.some((p) => existsSync(p));
  const dynare = DYNARE_CANDIDATES.some((p) => existsSync(path.join(p, 'dynare.m')));
  if (octave && dynare) return null;
  const missing = [
    octave ? null : 'GNU Octave (Debian package octave)',
    dynare ? null : 'Dynare (Debian package dynare)',
  ].filter(Boolean);
  return `${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not installed`;
}

export interface DynareResults {
  steadyState: Record<string, number>;
  /** irfs[shock][variable]; Dynare stores only responses larger than 1e-10, others are absent. */
  irfs: Record<string, Record<string, number[]>>;
  /** Theoretical variance matrix in declaration order (stoch_simul with periods=0). */
  variance: number[][];
  /** First-order autocorrelation of each variable. */
  autocorr1: (number | null)[];
  /** Dynare's Sigma_e (M_.Sigma_e), in the declaration order of the shocks. */
  shockCovariance: number[][];
  /** Moduli of the eigenvalues Dynare's check reports. */
  eigenvalueModuli: number[];
  /** Average seconds of one stoch_simul call, timed inside Octave (NaN when not timed). */
  stochSimulSeconds: number;
  /** Wall time of the whole `dynare file nograph` process, Octave start-up included. */
  processSeconds: number;
  /** The .mod file that was run. */
  modFile: string;
}

/** Octave function that writes the results; lives in its own .m file (a verbatim block in a .mod cannot hold `end;`). */
const DUMP_FUNCTION = `function econagents_dump(M_, options_, oo_, var_list_, outfile, repeats)
  options_.noprint = true;
  seconds = NaN;
  if repeats > 0
    t0 = tic;
    for r = 1:repeats
      [info, oo2, options2, M2] = stoch_simul(M_, options_, oo_, var_list_);
    end
    seconds = toc(t0) / repeats;
  end
  fid = fopen(outfile, 'w');
  fprintf(fid, 'stoch_simul_seconds %.17g\\n', seconds);
  n = M_.endo_nbr;
  for i = 1:n
    fprintf(fid, 'steady %s %.17g\\n', M_.endo_names{i}, oo_.dr.ys(i));
  end
  for j = 1:M_.exo_nbr
    for i = 1:n
      name = [M_.endo_names{i} '_' M_.exo_names{j}];
      if isfield(oo_, 'irfs') && isfield(oo_.irfs, name)
        fprintf(fid, 'irf %s %s %s\\n', M_.exo_names{j}, M_.endo_names{i}, sprintf('%.17g ', oo_.irfs.(name)));
      end
    end
  end
  if isfield(oo_, 'var')
    for i = 1:size(oo_.var, 1)
      fprintf(fid, 'var %d %s\\n', i, sprintf('%.17g ', oo_.var(i, :)));
    end
  end
  if isfield(oo_, 'autocorr') && ~isempty(oo_.autocorr)
    fprintf(fid, 'autocorr1 %s\\n', sprintf('%.17g ', diag(oo_.autocorr{1})));
  end
  for i = 1:M_.exo_nbr
    fprintf(fid, 'sigma_e %d %s\\n', i, sprintf('%.17g ', M_.Sigma_e(i, :)));
  end
  if isfield(oo_.dr, 'eigval')
    fprintf(fid, 'eigval %s\\n', sprintf('%.17g ', abs(oo_.dr.eigval)));
  end
  fclose(fid);
end
`;

function parseResults(
  text: string,
  endogenous: number,
): Omit<DynareResults, 'processSeconds' | 'modFile'> {
  const steadyState: Record<string, number> = {};
  const irfs: Record<string, Record<string, number[]>> = {};
  const variance: number[][] = [];
  const shockCovariance: number[][] = [];
  let autocorr1: (number | null)[] = [];
  let eigenvalueModuli: number[] = [];
  let stochSimulSeconds = NaN;
  const numbers = (s: string): number[] =>
    s
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map((v) =>
        /^nan$/i.test(v)
          ? NaN
          : /^-?inf$/i.test(v)
            ? v.startsWith('-')
              ? -Infinity
              : Infinity
            : Number(v),
      );
  for (const line of text.split('\n')) {
    const [kind, ...rest] = line.trim().split(/\s+/);
    if (!kind) continue;
    if (kind === 'stoch_simul_seconds') stochSimulSeconds = Number(rest[0]);
    else if (kind === 'steady' && rest[0]) steadyState[rest[0]] = Number(rest[1]);
    else if (kind === 'irf' && rest[0] && rest[1]) {
      (irfs[rest[0]] ??= {})[rest[1]] = numbers(rest.slice(2).join(' '));
    } else if (kind === 'var') variance[Number(rest[0]) - 1] = numbers(rest.slice(1).join(' '));
    else if (kind === 'autocorr1')
      autocorr1 = numbers(rest.join(' ')).map((v) => (Number.isFinite(v) ? v : null));
    else if (kind === 'sigma_e')
      shockCovariance[Number(rest[0]) - 1] = numbers(rest.slice(1).join(' '));
    else if (kind === 'eigval') eigenvalueModuli = numbers(rest.join(' '));
  }
  if (Object.keys(steadyState).length !== endogenous) {
    throw new ModelError('dynare', 'Dynare finished without writing its results (see its output)');
  }
  return {
    steadyState,
    irfs,
    variance,
    autocorr1,
    shockCovariance,
    eigenvalueModuli,
    stochSimulSeconds,
  };
}

function runProcess(
  command: string,
  args: string[],
  cwd: string,
  timeoutMs: number,
): Promise<{ code: number | null; output: string; seconds: number; timedOut: boolean }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: '/usr/bin:/bin', HOME: cwd, LANG: 'C' },
    });
    let output = '';
    const keep = (data: Buffer): void => {
      if (output.length < 200_000) output += data.toString('utf8');
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }, timeoutMs);
    const done = (code: number | null): void => {
      clearTimeout(timer);
      resolve({ code, output, seconds: (performance.now() - started) / 1000, timedOut });
    };
    child.on('error', (err) => {
      output += String(err);
      done(null);
    });
    child.on('close', (code) => done(code));
  });
}

export interface DynareRunOptions {
  irfPeriods?: number;
  /** The session's parameter values (see `toModFile`). */
  overrides?: Record<string, number>;
  /** The session's shock correlations (see `toModFile`). */
  shockCorrelations?: ShockCorrelation[];
  /** How many timed stoch_simul calls to average (default 5; 0 times nothing). */
  repeats?: number;
  timeoutMs?: number;
  installation?: DynareInstallation;
}

/** Exports the model, runs `dynare <file> nograph` under Octave and reads the results. */
export async function runDynare(
  model: CompiledModel,
  options: DynareRunOptions = {},
): Promise<DynareResults> {
  const modFile = toModFile(model, {
    irfPeriods: options.irfPeriods,
    overrides: options.overrides,
    shockCorrelations: options.shockCorrelations,
    appendVerbatim: dumpCall(options.repeats ?? 5),
  });
  return runDynareModText(modFileName(model), modFile, model.endo.length, options);
}

const RESULTS_FILE = 'econagents_results.txt';

/**
 * The Octave statement that writes Dynare's results; put it in a `verbatim` block after the
 * stoch_simul statement of a .mod file given to `runDynareModText`.
 */
export function dumpCall(repeats = 0): string {
  return `econagents_dump(M_, options_, oo_, var_list_, '${RESULTS_FILE}', ${Math.max(0, Math.trunc(repeats))});`;
}

/**
 * Runs the text of a .mod file in Dynare (`dynare <name> nograph`) and reads the results the
 * `dumpCall` statement in it writes. `endogenous` is how many variables the file declares.
 */
export async function runDynareModText(
  name: string,
  modFile: string,
  endogenous: number,
  options: Pick<DynareRunOptions, 'timeoutMs' | 'installation'> = {},
): Promise<DynareResults> {
  const installation = options.installation ?? findDynare();
  if (!installation) {
    throw new ModelError(
      'dynare',
      `Dynare cannot run here: ${dynareMissingReason() ?? 'not found'}`,
    );
  }
  if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(name)) {
    throw new ModelError('invalid_input', `'${name}' cannot name a .mod file`);
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'econagents-dynare-'));
  try {
    await writeFile(path.join(dir, `${name}.mod`), modFile);
    await writeFile(path.join(dir, 'econagents_dump.m'), DUMP_FUNCTION);
    const script = `addpath('${installation.matlabDir}'); cd('${dir}'); dynare ${name} nograph`;
    const run = await runProcess(
      installation.octave,
      ['--no-gui', '--norc', '--quiet', '--no-window-system', '--eval', script],
      dir,
      options.timeoutMs ?? 300_000,
    );
    if (run.timedOut)
      throw new ModelError(
        'dynare',
        `Dynare did not finish within ${Math.round((options.timeoutMs ?? 300_000) / 1000)} s`,
      );
    let text: string;
    try {
      text = await readFile(path.join(dir, RESULTS_FILE), 'utf8');
    } catch {
      const lastLines = run.output.trim().split('\n').slice(-8).join('\n');
      throw new ModelError('dynare', `Dynare failed on the exported model:\n${lastLines}`);
    }
    return { ...parseResults(text, endogenous), processSeconds: run.seconds, modFile };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
