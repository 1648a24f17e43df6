import type {
  CalibrationResult,
  MathematicalModelResult,
  TheoryResult,
} from '../../../../common/teams/model';

/**
 * The Model team's documents as Markdown (math in $...$ / $$...$$, which the Documentation page
 * and the screen render with KaTeX): what the completed session saves and what the export
 * returns. Only computed numbers appear as results.
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

function table(header: string[], rows: string[][]): string {
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
  ].join('\n');
}

export function theoryMarkdown(t: TheoryResult): string {
  const lines = [`# Theoretical framework: ${t.title}`, '', `Research focus: ${t.focus}`, ''];
  if (t.source === 'library') {
    lines.push(
      `> The library's text: the documented framework of the canonical ${t.modelType} model. The adaptation to the focus is missing: ${t.adaptationMissing ?? 'not made'}`,
      '',
      t.libraryFramework,
    );
  } else {
    lines.push(
      "> Adapted to the focus by the language model from the library's documented framework.",
      '',
      t.framework,
    );
    for (const [title, items] of [
      ['Assumptions', t.assumptions],
      ['Mechanisms', t.mechanisms],
      ['Agents', t.agents],
      ['Markets', t.markets],
    ] as const) {
      if (items.length === 0) continue;
      lines.push('', `## ${title}`, '', ...items.map((x) => `- ${x}`));
    }
    lines.push('', "## The library's documented framework", '', t.libraryFramework);
  }
  lines.push('', '## References', '', ...t.references.map((r) => `- ${r.citation}`));
  return lines.join('\n');
}

export function modelMarkdown(m: MathematicalModelResult): string {
  const d = m.description;
  const lines = [
    `# Mathematical model: ${d.title}`,
    '',
    m.source === 'model'
      ? '> Equations proposed by the language model and checked by the engine.'
      : `> The library's canonical equations${m.adaptationMissing ? ` (the adaptation to the focus is missing: ${m.adaptationMissing})` : ''}.`,
    '',
  ];
  if (m.explanation) lines.push(m.explanation, '');
  lines.push('## Equations', '');
  m.equations.forEach((e, i) => lines.push(`**(${i + 1}) ${e.label}**`, '', `$$${e.latex}$$`, ''));
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
    '## Parameters',
    '',
    table(
      ['Name', 'Meaning', 'Value', 'Source'],
      d.parameters.map((p) => [
        `\`${p.name}\``,
        p.label,
        p.expr !== undefined ? `\`${p.expr}\`` : fmt(p.value),
        p.source,
      ]),
    ),
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
  lines.push(
    '## Parameters',
    '',
    table(
      ['Name', 'Meaning', 'Value', 'Source'],
      c.parameters.map((p) => [
        `\`${p.name}\``,
        p.label,
        fmt(p.value),
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
          fmt(moments.mean[i]),
          fmt(moments.std[i]),
          fmt(moments.autocorr[0]?.[i]),
        ]),
      ),
      '',
    );
  }
  const sim = run.simulatedMoments;
  lines.push(
    `## Simulated moments (${run.simulation.periods} periods, seed ${run.simulation.seed})`,
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
    parts.model ? modelMarkdown(parts.model) : null,
    parts.calibration ? calibrationMarkdown(parts.calibration) : null,
  ].filter((s): s is string => s !== null);
  return sections.length > 0
    ? sections.join('\n\n---\n\n')
    : '# Model session\n\nNo results yet.\n';
}
