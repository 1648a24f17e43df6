import { modelPassage, ORIGIN_LABELS, type ItemOrigin } from '../../../../common/provenance';
import {
  isUnitRootMoment,
  UNIT_ROOT_MOMENT,
  type CalibrationResult,
  type MathematicalModelResult,
  type ModelRun,
  type ParameterSource,
  type TheoryResult,
} from '../../../../common/teams/model';

/**
 * The Model team's documents as Markdown (math in $...$ / $$...$$, which the Documentation page
 * and the screen render with KaTeX): what the completed session saves and what the export
 * returns. Only computed numbers appear as results; every parameter says where its value came
 * from; text the language model wrote sits in a passage marked as written by the model
 * (`modelPassage`), so it reads as such in any Markdown viewer.
 */

const fmt = (v: number | null | undefined): string =>
  v === null || v === undefined || !Number.isFinite(v)
    ? 'n/a'
    : v === 0
      ? '0'
      : Math.abs(v) >= 1e-3 && Math.abs(v) < 1e5
        ? String(+v.toPrecision(5))
        : v.toExponential(3);

/** Table cells: pipes and newlines would break the table. */
const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

/** Moments of a variable on a unit root are not defined (null), as Dynare reports none. */
export function momentText(
  value: number | null | undefined,
  variable: string,
  run: Pick<ModelRun, 'unitRoot'>,
): string {
  return isUnitRootMoment(value, variable, run) ? UNIT_ROOT_MOMENT : fmt(value);
}

const originText = (origin: ItemOrigin): string => ORIGIN_LABELS[origin];

function notSuppliedLines(items: readonly string[]): string[] {
  if (items.length === 0) return [];
  return ['', '## Not supplied by the model', '', ...items.map((x) => `- ${x}`)];
}

function table(header: string[], rows: string[][]): string {
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
  ].join('\n');
}

export function theoryMarkdown(t: TheoryResult): string {
  const lines = [`# Theoretical framework: ${t.title}`, '', `Research focus: ${t.focus}`, ''];
  if (t.source === 'imported') {
    lines.push(
      "> A summary of the researcher's .mod file, written by the platform from the imported declarations.",
      '',
      t.framework,
    );
    return lines.join('\n');
  }
  if (t.source === 'library') {
    lines.push(
      `> The library's text: the documented framework of the canonical ${t.modelType} model. The adaptation to the focus is missing: ${t.adaptationMissing ?? 'not made'}`,
      '',
      t.libraryFramework,
    );
  } else {
    const adapted = [t.framework];
    for (const [title, items] of [
      ['Assumptions', t.assumptions],
      ['Mechanisms', t.mechanisms],
      ['Agents', t.agents],
      ['Markets', t.markets],
    ] as const) {
      if (items.length === 0) continue;
      adapted.push('', `**${title}**`, '', ...items.map((x) => `- ${x}`));
    }
    lines.push(
      "> Adapted to the focus by the language model from the library's documented framework.",
      '',
      modelPassage('Theoretical framework adapted to the focus', adapted.join('\n')),
      '',
      "## The library's documented framework",
      '',
      t.libraryFramework,
    );
  }
  lines.push(...notSuppliedLines(t.notSupplied));
  lines.push('', '## References', '', ...t.references.map((r) => `- ${r.citation}`));
  return lines.join('\n');
}

/** The parameters with their final values and where each came from. */
function parameterRows(m: MathematicalModelResult, c: CalibrationResult | null): string[][] {
  if (c) {
    return c.parameters.map((p) => [
      `\`${p.name}\``,
      p.label,
      fmt(p.value),
      originText(p.origin),
      `${p.source}${p.derived ? ' (computed from other parameters)' : ''}`,
    ]);
  }
  const sources = new Map<string, ParameterSource>(m.parameterSources.map((s) => [s.name, s]));
  return m.description.parameters.map((p) => {
    const s = sources.get(p.name);
    return [
      `\`${p.name}\``,
      p.label,
      p.expr !== undefined ? `\`${p.expr}\`` : fmt(p.value),
      s ? originText(s.origin) : '',
      s?.source ?? p.source,
    ];
  });
}

/**
 * The model's document. With the calibration's result, the parameter table gives the session's
 * final values (as the .mod file does); without it, the Mathematical Model phase's.
 */
export function modelMarkdown(
  m: MathematicalModelResult,
  c: CalibrationResult | null = null,
): string {
  const d = m.description;
  const lines = [
    `# Mathematical model: ${d.title}`,
    '',
    m.source === 'model'
      ? '> Equations proposed by the language model and checked by the engine.'
      : m.source === 'imported'
        ? `> The researcher's own model, imported from ${m.imported?.fileName ?? 'a Dynare .mod file'} and checked by the engine.`
        : `> The library's canonical equations${m.adaptationMissing ? ` (the adaptation to the focus is missing: ${m.adaptationMissing})` : ''}.`,
    '',
  ];
  if (m.explanation) lines.push(modelPassage('Explanation of the changes', m.explanation), '');
  lines.push('## Equations', '', 'Printed from the equations the engine parsed and solved.', '');
  m.equations.forEach((e, i) => {
    lines.push(`**(${i + 1}) ${e.label}**`, '', `$$${e.latex}$$`, '');
    if (e.modelLatex) {
      lines.push(
        modelPassage(`The model's own LaTeX of equation (${i + 1})`, `$$${e.modelLatex}$$`),
        '',
      );
    }
  });
  lines.push(
    'In the description format (Dynare syntax):',
    '',
    '```',
    ...m.equations.map((e) => `${e.text};`),
    '```',
    '',
  );
  lines.push(
    '## Variables',
    '',
    table(
      ['Name', 'Meaning', 'Steady state'],
      d.endogenous.map((v) => [`\`${v.name}\``, v.label, fmt(m.steadyState[v.name])]),
    ),
    '',
  );
  if (d.exogenous.length > 0) {
    lines.push(
      '## Shocks',
      '',
      table(
        ['Name', 'Meaning', 'Std. dev. parameter'],
        d.exogenous.map((s) => [`\`${s.name}\``, s.label, `\`${s.stderr}\``]),
      ),
      '',
    );
  }
  lines.push(
    c ? '## Parameters (final values, after calibration)' : '## Parameters',
    '',
    table(['Name', 'Meaning', 'Value', 'Origin', 'Source'], parameterRows(m, c)),
    '',
  );
  if (m.changes.length > 0) {
    lines.push(
      "## Changes to the library's model",
      '',
      table(
        ['Change', 'Name', 'Before', 'After'],
        m.changes.map((c) => [`${c.kind} ${c.what}`, c.name, c.before ?? '', c.after ?? '']),
      ),
      '',
    );
  }
  lines.push(
    '## What the engine checked',
    '',
    table(
      ['#', 'Proposal', 'Result', 'Message'],
      m.checks.map((c) => [
        String(c.attempt),
        c.proposal,
        c.ok ? 'passed' : `failed (${c.stage})`,
        c.message,
      ]),
    ),
    '',
    `Blanchard-Kahn: ${m.blanchardKahn.message}`,
    '',
  );
  if (m.imported) {
    if (m.imported.notes.length > 0) {
      lines.push('## Notes from the import', '', ...m.imported.notes.map((n) => `- ${n}`), '');
    }
    if (m.imported.notRun.length > 0) {
      lines.push(
        '## Not run',
        '',
        'Statements after `stoch_simul`, which the engine does not run:',
        '',
        ...m.imported.notRun.map((s) => `- Line ${s.line}: \`${s.statement.replace(/`/g, "'")}\``),
        '',
      );
    }
  }
  lines.push(...notSuppliedLines(m.notSupplied));
  return lines.join('\n');
}

export function calibrationMarkdown(c: CalibrationResult): string {
  const run = c.run;
  const lines = [
    `# Calibration and estimation: ${run.title}`,
    '',
    '> Every number below is computed by the model engine.',
    '',
  ];
  if (c.feedbackNote) {
    lines.push(
      c.feedbackNoteByModel
        ? modelPassage('Note on the feedback', c.feedbackNote)
        : `> ${c.feedbackNote}`,
      '',
    );
  }
  if (run.unitRoot) lines.push(`> **Unit root.** ${run.unitRoot.note}`, '');
  lines.push(
    '## Parameters',
    '',
    table(
      ['Name', 'Meaning', 'Value', 'Origin', 'Source'],
      c.parameters.map((p) => [
        `\`${p.name}\``,
        p.label,
        fmt(p.value),
        originText(p.origin),
        `${p.source}${p.derived ? ' (computed from other parameters)' : ''}`,
      ]),
    ),
    '',
  );
  lines.push('## Target moments', '', `Targets: ${c.targetsSource}.`, '');
  const data = c.targetData;
  if (data && !data.problem) {
    lines.push(
      table(
        ['Column', 'Model variable', 'Transform'],
        data.columns.map((col) => [
          col.column,
          `\`${col.variable}\``,
          col.transform === 'hp'
            ? `log, HP cycle (lambda ${col.lambda})`
            : col.transform === 'logdiff'
              ? 'log difference'
              : 'level',
        ]),
      ),
      '',
    );
  }
  if (run.targets.length > 0) {
    lines.push(
      table(
        ['Moment', 'Filter', 'Target', 'Model', 'Source'],
        run.targets.map((t) => [
          `${t.statistic}(${t.variable}${t.other ? `, ${t.other}` : ''})`,
          t.filter === 'hp' ? `HP (lambda ${t.lambda ?? 1600})` : 'none',
          fmt(t.value),
          fmt(t.model),
          t.source,
        ]),
      ),
      '',
    );
  }
  if (c.estimation) {
    const e = c.estimation;
    lines.push(
      '## Moment matching',
      '',
      `Nelder-Mead over ${e.parameters.map((p) => `\`${p.name}\``).join(', ')}: the sum of squared relative gaps fell from ${fmt(e.objectiveBefore)} to ${fmt(e.objectiveAfter)} in ${e.evaluations} model solutions.`,
      '',
      table(
        ['Parameter', 'Before', 'Estimate'],
        e.parameters.map((p) => [`\`${p.name}\``, fmt(p.initial), fmt(p.estimate)]),
      ),
      '',
    );
  } else if (c.estimationNote) {
    lines.push(c.estimationNote, '');
  }
  const moments = run.theoreticalMoments;
  if (moments) {
    lines.push(
      '## Theoretical moments (first-order solution)',
      '',
      table(
        ['Variable', 'Mean (steady state)', 'Std. dev.', 'Autocorrelation (1)'],
        moments.variables.map((v, i) => [
          `\`${v}\``,
          momentText(moments.mean[i], v, run),
          momentText(moments.std[i], v, run),
          momentText(moments.autocorr[0]?.[i], v, run),
        ]),
      ),
      '',
    );
  }
  const sim = run.simulatedMoments;
  lines.push(
    `## Simulated moments (one simulated sample: ${run.simulation.periods} periods after ${run.simulation.burnIn} dropped, seed ${run.simulation.seed})`,
    '',
    run.unitRoot
      ? `Moments of one simulation, not theoretical moments: for ${run.unitRoot.nonStationary.map((v) => `\`${v}\``).join(', ')} they describe this sample only and do not converge as it grows.`
      : moments
        ? 'Moments of one simulation; the theoretical moments above are exact for the first-order solution.'
        : 'Moments of one simulation (no theoretical moments were computed for this model).',
    '',
    table(
      ['Variable', 'Mean', 'Std. dev.', 'Autocorrelation (1)'],
      sim.variables.map((v, i) => [
        `\`${v}\``,
        fmt(sim.mean[i]),
        fmt(sim.std[i]),
        fmt(sim.autocorr[0]?.[i]),
      ]),
    ),
    '',
  );
  const shocks = Object.keys(run.irfs);
  if (shocks.length > 0) {
    lines.push(`## Impulse responses (one standard deviation, ${run.irfPeriods} periods)`, '');
    for (const shock of shocks) {
      const byVariable = run.irfs[shock] ?? {};
      lines.push(
        `Shock \`${shock}\`:`,
        '',
        table(
          ['Variable', 'Impact', 'Period 4', 'Period 12', 'Largest deviation'],
          Object.entries(byVariable).map(([v, p]) => {
            const peak = p.reduce((a, b) => (Math.abs(b) > Math.abs(a) ? b : a), 0);
            return [`\`${v}\``, fmt(p[0]), fmt(p[3]), fmt(p[11]), fmt(peak)];
          }),
        ),
        '',
      );
    }
  }
  if (run.comparativeStatics && run.transition) {
    lines.push(
      `## Scenario: ${run.transition.title}`,
      '',
      table(
        ['Variable', 'Initial steady state', 'New steady state', 'Change'],
        run.comparativeStatics.map((s) => [
          `\`${s.variable}\``,
          fmt(s.baseline),
          fmt(s.scenario),
          fmt(s.change),
        ]),
      ),
      '',
      `Perfect-foresight transition over ${run.transition.periods} periods (largest residual ${fmt(run.transition.residual)}).`,
      '',
    );
  }
  lines.push(
    '## Dynare',
    '',
    c.dynare.available
      ? `Dynare ran the exported .mod file: the largest difference from our results is ${fmt(c.dynare.irfMaxDiff)} in the impulse responses, ${fmt(c.dynare.steadyStateMaxDiff)} in the steady state and ${fmt(c.dynare.varianceMaxDiff)} in the variances.`
      : (c.dynare.reason ?? 'Dynare was not run.'),
    '',
  );
  return lines.join('\n');
}

export function sessionMarkdown(parts: {
  theory: TheoryResult | null;
  model: MathematicalModelResult | null;
  calibration: CalibrationResult | null;
}): string {
  const sections = [
    parts.theory ? theoryMarkdown(parts.theory) : null,
    parts.model ? modelMarkdown(parts.model, parts.calibration) : null,
    parts.calibration ? calibrationMarkdown(parts.calibration) : null,
  ].filter((s): s is string => s !== null);
  return sections.length > 0
    ? sections.join('\n\n---\n\n')
    : '# Model session\n\nNo results yet.\n';
}
