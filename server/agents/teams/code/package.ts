import { plural } from '../../../../common/text';
import yazl from 'yazl';
import { modelPassage } from '../../../../common/provenance';
import {
  CODE_FILES,
  CODE_LANGUAGE_LABELS,
  packageReproducibility,
  repairAttemptText,
  REVIEW_SCORING_RULE,
  REVIEW_SIGNAL_RULE,
  reviewSignal,
  type CodeConfiguration,
  type CodeFigure,
  type CodeLanguage,
  type GenerationResult,
  type OptimizationResult,
  type ReviewResult,
  type TestResult,
} from '../../../../common/teams/code';
import { RUNTIME_NAMES } from './dependencies';

/**
 * The final package of a Code session: the code, its tests, a README saying how to run both and
 * what happened when they ran, and the dependency list. It is saved as a project document
 * (Markdown, everything in one file) and downloaded as a zip (one file each). A download made
 * from the editor carries the editor's code as it is now and the editor's last run (its output
 * and figures), and its README says which code produced them. The model's prose is marked as
 * the model's (common/provenance.ts modelPassage).
 */

/** The editor's last run for a session, as the server ran it. */
export interface EditorRun {
  code: string;
  language: CodeLanguage;
  /** ISO time the run finished. */
  ranAt: string;
  output: string;
  error: string | null;
  kind: string;
  exitCode: number | null;
  durationMs: number;
  figures: CodeFigure[];
  /** The project files it found in data/ (their paths). */
  workingFiles: string[];
}

export interface PackageInput {
  requirements: string;
  configuration: CodeConfiguration;
  generation: GenerationResult;
  review?: ReviewResult;
  optimization?: OptimizationResult;
  tests?: TestResult;
  /** When the package is put together. */
  date: Date;
  /** The editor's code when the package was asked for from the screen. */
  editorCode?: string;
  /** The editor's last run for the session, when there was one. */
  lastRun?: EditorRun;
}

export interface PackageFile {
  name: string;
  content: string | Buffer;
}

const FENCE: Record<CodeConfiguration['language'], string> = {
  python: 'python',
  r: 'r',
  matlab: 'matlab',
  dynare: 'matlab',
  julia: 'julia',
};

/** Where the session's own code goes when the editor's code differs from it. */
const SESSION_DIR = 'session';
/** Where the editor's last run (output, figures, and its code when that differs) goes. */
const RUN_DIR = 'results';

/** The code the session ended with: the tested code when tests ran, else the newest version. */
export function sessionCode(p: PackageInput): string {
  return p.tests?.code_under_test ?? p.optimization?.optimized_code ?? p.generation.main_code;
}

/** The code the package ships as its program: the editor's when given, else the session's. */
export function packageCode(p: PackageInput): string {
  return p.editorCode ?? sessionCode(p);
}

const sameCode = (a: string, b: string) => a.replace(/\s+$/, '') === b.replace(/\s+$/, '');

function runCommands(language: CodeConfiguration['language']): { run: string; test: string } {
  const f = CODE_FILES[language];
  switch (language) {
    case 'python':
      return { run: `python3 ${f.main}`, test: `python3 -m pytest ${f.test}` };
    case 'r':
      return { run: `Rscript ${f.main}`, test: `Rscript ${f.test}` };
    case 'matlab':
      return {
        run: `octave --no-gui --quiet ${f.main}   # or run('${f.main}') in MATLAB`,
        test: `octave --no-gui --quiet ${f.test}`,
      };
    case 'dynare':
      return {
        run: `octave --no-gui --quiet --eval "dynare model nograph"   # or: dynare model in MATLAB`,
        test: `octave --no-gui --quiet --eval "dynare model nograph noclearall; run('${f.test}')"`,
      };
    case 'julia':
      return { run: `julia ${f.main}`, test: `julia ${f.test}` };
  }
}

function dependencyFile(p: PackageInput, deps: string[]): PackageFile {
  if (p.configuration.language === 'python') {
    return { name: 'requirements.txt', content: deps.map((d) => `${d}\n`).join('') };
  }
  const lines = [
    `# Runtime: ${RUNTIME_NAMES[p.configuration.language]}`,
    '# Packages the code loads (read from its source):',
    ...(deps.length > 0 ? deps : ['(none beyond the runtime)']),
  ];
  return { name: 'DEPENDENCIES.txt', content: `${lines.join('\n')}\n` };
}

function testSection(t: TestResult | undefined): string[] {
  if (!t) return ['Tests: not written (the session ended before Test Development).'];
  const { run } = t;
  const counts = run.passed !== null ? ` (${run.passed} passed, ${run.failed ?? 0} failed)` : '';
  const lines = [
    `Tests: **${run.status.replace('_', ' ')}**${counts} when run in the EconAgents sandbox` +
      (run.durationMs !== null ? ` in ${(run.durationMs / 1000).toFixed(1)} s.` : '.'),
  ];
  if (run.error) lines.push('', `What happened: ${run.error}`);
  if (t.repairs.length > 0) {
    lines.push('', 'Repairs after failing tests:');
    for (const r of t.repairs) lines.push(`- ${repairAttemptText(r)}`);
  }
  return lines;
}

function reviewSection(r: ReviewResult | undefined): string[] {
  if (!r || r.skipped || r.overall_score === null) {
    return ['Review: not part of this run (quick mode).'];
  }
  const signal = reviewSignal(r);
  const lines = [
    `Review score: **${r.overall_score} / 10**, computed from ${plural(r.findings.length, 'finding')}. ` +
      REVIEW_SCORING_RULE,
    '',
    signal.good
      ? 'The review shows no reason for concern by its rule.'
      : `The review does not show as good: ${signal.reasons.join('; ')}. ${REVIEW_SIGNAL_RULE}`,
  ];
  const sandbox = r.findings.filter((f) => f.source === 'sandbox');
  const model = r.findings.filter((f) => f.source === 'model');
  const item = (f: ReviewResult['findings'][number]) =>
    `- ${f.criterion}, ${f.severity}${f.lines.length > 0 ? ` (lines ${f.lines.join(', ')})` : ''}: ${f.comment}`;
  if (sandbox.length > 0) lines.push('', 'From running the code:', ...sandbox.map(item));
  if (model.length > 0) lines.push('', modelPassage('Review findings', model.map(item).join('\n')));
  if (r.summary.trim()) lines.push('', modelPassage("Reviewer's summary", r.summary));
  return lines;
}

function reproducibilitySection(p: PackageInput): string[] {
  const { reproducible, problems } = packageReproducibility(p);
  if (reproducible) {
    return [
      `Reproducible: the package's tests passed in the sandbox and \`${CODE_FILES[p.configuration.language].main}\` ran without error.`,
    ];
  }
  return ['Not shown as reproducible:', ...problems.map((x) => `- ${x}`)];
}

/** Which code is in the package, and which code produced the run it carries. */
function codeSection(p: PackageInput): string[] {
  const main = CODE_FILES[p.configuration.language].main;
  const lines: string[] = [];
  const edited = p.editorCode !== undefined && !sameCode(p.editorCode, sessionCode(p));
  if (edited) {
    lines.push(
      `\`${main}\` is the code as it stood in the editor when the package was downloaded, ` +
        `changed by the researcher after the session. The tests and the results under "Results" ` +
        `ran against the session's code, kept as \`${SESSION_DIR}/${main}\`.`,
    );
  } else {
    lines.push(`\`${main}\` is the code the session wrote and tested.`);
  }
  const run = p.lastRun;
  if (run) {
    const runMain = CODE_FILES[run.language].main;
    const sameAsShipped =
      run.language === p.configuration.language && sameCode(run.code, packageCode(p));
    const outcome = run.error ? `it ended with: ${run.error}` : 'it finished without error';
    lines.push(
      '',
      `\`${RUN_DIR}/output.txt\`${run.figures.length > 0 ? ` and the figures in \`${RUN_DIR}/\` (${run.figures.map((f) => f.name).join(', ')})` : ''} ` +
        `come from the editor's last run, at ${run.ranAt} in the EconAgents sandbox, of ` +
        (sameAsShipped
          ? `\`${main}\` exactly as it is in this package`
          : `an earlier version of the code, kept as \`${RUN_DIR}/${runMain}\` (the code was edited after that run)`) +
        `; ${outcome}.` +
        (run.workingFiles.length > 0 ? ` It read ${run.workingFiles.join(', ')}.` : ''),
    );
  } else {
    lines.push('', 'The code was not run from the editor, so the package holds no run output.');
  }
  return lines;
}

function inputsSection(p: PackageInput): string[] {
  const files = p.generation.working_files;
  if (files.length === 0) return [];
  return [
    '## Input files',
    '',
    'The program was given these project files, read-only, in its working directory. They are ' +
      'not part of the package: put them in `data/` beside the code to run it.',
    '',
    ...files.map(
      (f) =>
        `- \`${f.path}\`: the project ${f.kind} "${f.name}" (id ${f.id}, SHA-256 ${f.sha256.slice(0, 16)}...)`,
    ),
    '',
  ];
}

/** README.md: what the code is for, how to run it and its tests, and what happened when run. */
export function buildReadme(p: PackageInput, deps: string[]): string {
  const { language } = p.configuration;
  const cmd = runCommands(language);
  const files = CODE_FILES[language];
  const execution = p.tests ? null : (p.optimization?.execution ?? p.generation.execution);
  const changes = p.optimization && !p.optimization.skipped ? p.optimization.changes : [];
  return [
    `# ${CODE_LANGUAGE_LABELS[language]} code package`,
    '',
    `Generated by the EconAgents Code team on ${p.date.toISOString().slice(0, 10)}. The code ` +
      'and tests were written by a language model; the results below come from running them.',
    '',
    '## Requirements',
    '',
    p.requirements,
    '',
    '## Files',
    '',
    `- \`${files.main}\`: the code`,
    ...(p.tests ? [`- \`${files.test}\`: its tests`] : []),
    `- \`${dependencyFile(p, deps).name}\`: the packages it uses`,
    ...(p.lastRun ? [`- \`${RUN_DIR}/\`: the output and figures of the editor's last run`] : []),
    '',
    '## Which code',
    '',
    ...codeSection(p),
    '',
    ...inputsSection(p),
    '## How to run',
    '',
    `Runtime: ${RUNTIME_NAMES[language]}.`,
    '',
    '```sh',
    cmd.run,
    ...(p.tests ? [cmd.test] : []),
    '```',
    '',
    '## Dependencies',
    '',
    ...(deps.length > 0 ? deps.map((d) => `- ${d}`) : ['None beyond the runtime.']),
    '',
    '## Results',
    '',
    ...reproducibilitySection(p),
    '',
    ...testSection(p.tests),
    ...(execution
      ? ['', `Run: ${execution.ok ? 'finished without error' : (execution.error ?? 'failed')}.`]
      : []),
    '',
    ...reviewSection(p.review),
    '',
    '## About the code',
    '',
    p.generation.explanation.trim()
      ? modelPassage('About the code', p.generation.explanation)
      : '(The model gave no explanation.)',
    ...(changes.length > 0
      ? ['', modelPassage('Optimization changes', changes.map((c) => `- ${c}`).join('\n'))]
      : []),
    '',
  ].join('\n');
}

/** The editor's last run as files: its output, its figures, and its code when it differs. */
function runFiles(p: PackageInput): PackageFile[] {
  const run = p.lastRun;
  if (!run) return [];
  const output = [
    `# The editor's last run, ${run.ranAt}: ${run.error ?? 'finished without error'}`,
    '',
    run.output,
  ].join('\n');
  const out: PackageFile[] = [{ name: `${RUN_DIR}/output.txt`, content: output }];
  if (!(run.language === p.configuration.language && sameCode(run.code, packageCode(p)))) {
    out.push({ name: `${RUN_DIR}/${CODE_FILES[run.language].main}`, content: run.code });
  }
  for (const f of run.figures) {
    out.push({ name: `${RUN_DIR}/${f.name}`, content: Buffer.from(f.base64, 'base64') });
  }
  return out;
}

/** The package's files, as the zip holds them. */
export function packageFiles(p: PackageInput, deps: string[]): PackageFile[] {
  const files = CODE_FILES[p.configuration.language];
  const edited = p.editorCode !== undefined && !sameCode(p.editorCode, sessionCode(p));
  return [
    { name: 'README.md', content: buildReadme(p, deps) },
    { name: files.main, content: packageCode(p) },
    ...(p.tests ? [{ name: files.test, content: p.tests.test_code }] : []),
    dependencyFile(p, deps),
    ...(edited ? [{ name: `${SESSION_DIR}/${files.main}`, content: sessionCode(p) }] : []),
    ...runFiles(p),
  ];
}

/** The package as one Markdown document (the project's document). */
export function packageDocument(p: PackageInput, deps: string[]): string {
  const fence = FENCE[p.configuration.language];
  const files = CODE_FILES[p.configuration.language];
  const parts = [
    buildReadme(p, deps),
    `## ${files.main}`,
    '',
    '```' + fence,
    packageCode(p).trimEnd(),
    '```',
    '',
  ];
  if (p.tests) {
    parts.push(`## ${files.test}`, '', '```' + fence, p.tests.test_code.trimEnd(), '```', '');
  }
  return parts.join('\n');
}

/** A zip of the files, in memory (packages are small: a few source files and figures). */
export function zipFiles(files: PackageFile[], date: Date): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const f of files) {
    const content = typeof f.content === 'string' ? Buffer.from(f.content, 'utf8') : f.content;
    zip.addBuffer(content, f.name, { mtime: date });
  }
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('error', reject);
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
  });
}
