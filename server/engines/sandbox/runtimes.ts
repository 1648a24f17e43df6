import { accessSync, constants } from 'node:fs';
import type { CodeLanguage } from '../../../common/settings';
import { octaveRunScript } from './support-files';

/**
 * The language runtimes, all from Debian packages under /usr (the only system tree the sandbox
 * sees). Commands name absolute paths so PATH inside the sandbox does not matter.
 */
export interface RuntimeSpec {
  language: CodeLanguage;
  label: string;
  /** The extension of the language's source files, with the dot. */
  extension: string;
  /** Files on the host the runtime needs, each alternative list satisfied by any one path. */
  requires: string[][];
  /** Said when a required file is absent: what is missing and which package provides it. */
  missing: string;
  /** Libraries reported when present (GET /api/agents/status), by the path that proves them. */
  libraries?: Array<{ name: string; path: string }>;
  /** The command running `entry` (a file in the working directory). */
  run(entry: string, bin: string): string[];
  /** The command running the tests in `testFile` against `mainFile`. */
  test(testFile: string, mainFile: string, bin: string): string[];
}

const OCTAVE = ['/usr/bin/octave'];
// --no-history: Octave 7 otherwise fails to write its history at exit and prints an error.
const OCTAVE_FLAGS = ['--no-gui', '--quiet', '--no-history', '--no-window-system'];
const DYNARE_MATLAB = '/usr/lib/dynare/matlab';
const PY_PACKAGES = '/usr/lib/python3/dist-packages';
// dynare.m shadows an Octave function of the same name; the warning is noise for the user.
const DYNARE_PRELUDE = `warning('off', 'Octave:shadowed-function'); addpath('${DYNARE_MATLAB}');`;

/** The file name without its extension (file names are identifiers, checked before a run). */
const stem = (file: string) => file.replace(/\.[^.]+$/, '');

export const RUNTIMES: Record<CodeLanguage, RuntimeSpec> = {
  python: {
    language: 'python',
    label: 'Python 3',
    extension: '.py',
    requires: [['/usr/bin/python3']],
    missing:
      'Python 3 is not installed on this server (no /usr/bin/python3; Debian package python3)',
    libraries: ['numpy', 'pandas', 'matplotlib', 'statsmodels', 'scipy', 'pytest'].map((name) => ({
      name,
      path: `${PY_PACKAGES}/${name}`,
    })),
    run: (entry, bin) => [bin, '-B', entry],
    test: (testFile, _main, bin) => [
      bin,
      '-B',
      '-m',
      'pytest',
      '-q',
      '-p',
      'no:cacheprovider',
      testFile,
    ],
  },
  r: {
    language: 'r',
    label: 'R',
    extension: '.R',
    requires: [['/usr/bin/Rscript']],
    missing: 'R is not installed on this server (no /usr/bin/Rscript; Debian package r-base-core)',
    run: (entry, bin) => [bin, entry],
    test: (testFile, _main, bin) => [bin, testFile],
  },
  matlab: {
    language: 'matlab',
    label: 'MATLAB (GNU Octave)',
    extension: '.m',
    requires: [OCTAVE],
    missing:
      'GNU Octave, which runs MATLAB code here, is not installed on this server ' +
      '(no /usr/bin/octave; Debian package octave)',
    run: (entry, bin) => [bin, ...OCTAVE_FLAGS, '--eval', octaveRunScript(entry)],
    test: (testFile, _main, bin) => [bin, ...OCTAVE_FLAGS, '--eval', octaveRunScript(testFile)],
  },
  dynare: {
    language: 'dynare',
    label: 'Dynare (under GNU Octave)',
    extension: '.mod',
    requires: [OCTAVE, [`${DYNARE_MATLAB}/dynare.m`]],
    missing:
      'Dynare is not installed on this server (needs /usr/bin/octave and ' +
      `${DYNARE_MATLAB}/dynare.m; Debian packages octave and dynare)`,
    run: (entry, bin) => [
      bin,
      ...OCTAVE_FLAGS,
      '--eval',
      `${DYNARE_PRELUDE} dynare ${stem(entry)} nograph`,
    ],
    // The tests read the model's results (oo_, M_) after Dynare ran it in the same session.
    test: (testFile, mainFile, bin) => [
      bin,
      ...OCTAVE_FLAGS,
      '--eval',
      octaveRunScript(testFile, `${DYNARE_PRELUDE} dynare ${stem(mainFile)} nograph noclearall; `),
    ],
  },
  julia: {
    language: 'julia',
    label: 'Julia',
    extension: '.jl',
    requires: [['/usr/bin/julia', '/usr/local/bin/julia']],
    missing:
      'Julia is not installed on this server (no julia in /usr/bin or /usr/local/bin; Debian has ' +
      'no Julia package, so an administrator has to install it under /usr/local)',
    run: (entry, bin) => [bin, '--startup-file=no', entry],
    test: (testFile, _main, bin) => [bin, '--startup-file=no', testFile],
  },
};

function exists(path: string, mode = constants.R_OK): boolean {
  try {
    accessSync(path, mode);
    return true;
  } catch {
    return false;
  }
}

export interface RuntimeStatus {
  language: CodeLanguage;
  label: string;
  available: boolean;
  /** The executable used (the first required file). */
  command?: string;
  /** Libraries found (Python's numpy, pandas, ...). */
  libraries?: string[];
  /** What is missing, when not available. */
  message?: string;
}

/** Which runtimes are installed: file checks only, cheap enough for every status call. */
export function detectRuntime(spec: RuntimeSpec): RuntimeStatus {
  const found: string[] = [];
  for (const alternatives of spec.requires) {
    const hit = alternatives.find((p) => exists(p));
    if (hit === undefined) {
      return {
        language: spec.language,
        label: spec.label,
        available: false,
        message: spec.missing,
      };
    }
    found.push(hit);
  }
  const status: RuntimeStatus = {
    language: spec.language,
    label: spec.label,
    available: true,
    command: found[0],
  };
  if (spec.libraries)
    status.libraries = spec.libraries.filter((l) => exists(l.path)).map((l) => l.name);
  return status;
}
