import { DEFAULT_IRF_PERIODS, DEFAULT_SIMULATION_PERIODS } from '../../../common/teams/model';
import type { ShockCorrelation } from '../../../common/teams/model';
import { compileModel, parameterVector, type CompiledModel } from './compile';
import type { Expr } from './expr';
import { parseExpression, toDynare } from './expr';
import { shockCovariance } from './shocks';
import { findSteadyState, startingValues } from './steady';

/**
 * Export of a model as a Dynare .mod file (Dynare 5 syntax). The equations are printed from
 * the parsed trees, so the file says exactly what our solver solved; the steady state we
 * computed is given as `initval`, so Dynare's `steady` starts at the solution.
 */

export interface ModExportOptions {
  /** 'stochastic': stoch_simul; 'perfect_foresight': the description's scenario. */
  kind?: 'stochastic' | 'perfect_foresight';
  irfPeriods?: number;
  /** stoch_simul periods (0 = theoretical moments only, Dynare's default) or transition length. */
  periods?: number;
  /**
   * The session's final parameter values (estimated, data-targeted or set by the researcher):
   * written instead of the description's. A standard-deviation parameter sets its shock's size.
   */
  overrides?: Record<string, number>;
  /** The session's shock correlations and covariances, replacing the description's list. */
  shockCorrelations?: ShockCorrelation[];
  /**
   * Where each value comes from, written as the comment of its parameter line (for example
   * "estimated by moment matching" or "set by the researcher"). Without it an overridden value
   * says it was set for this session and names the description's value and source.
   */
  parameterSources?: Record<string, string>;
  /** Octave statements run after the computation (used by the Dynare runner). */
  appendVerbatim?: string;
}

const num = (v: number): string => (Object.is(v, -0) ? '0' : String(v));
/** Dynare strings are single-quoted; labels are user text, so quotes and newlines are dropped. */
const str = (s: string): string => s.replace(/['\n\r\\]/g, '').slice(0, 200);

function equationText(expr: Expr): string {
  if (expr.kind === 'bin' && expr.op === '-')
    return `${toDynare(expr.left)} = ${toDynare(expr.right)}`;
  return `${toDynare(expr)} = 0`;
}

/** A formula in parameters, printed from its parsed tree (so the file holds no other text). */
function parameterFormula(model: CompiledModel, text: string): string {
  const params = new Set(model.params);
  return toDynare(parseExpression(text, (name) => (params.has(name) ? 'param' : undefined)));
}

export function modFileName(model: CompiledModel): string {
  return `econagents_${model.description.type.toLowerCase()}`;
}

export function toModFile(model: CompiledModel, options: ModExportOptions = {}): string {
  const { endo, exo } = model;
  const description = options.shockCorrelations
    ? { ...model.description, shockCorrelations: options.shockCorrelations }
    : model.description;
  const kind = options.kind ?? 'stochastic';
  const overrides = options.overrides ?? {};
  const values = parameterVector(model, overrides);
  // the covariance must be valid for these values (throws a ModelError naming the problem)
  shockCovariance(options.shockCorrelations ? compileModel(description) : model, values);
  const sourceOf = (name: string, i: number): string => {
    const given = options.parameterSources?.[name];
    if (given !== undefined) return str(given);
    const p = description.parameters[i];
    if (overrides[name] === undefined || !p) return str(p?.source ?? '');
    const before = p.value !== undefined ? num(p.value) : (p.expr ?? '');
    return str(`set for this session (the description has ${before}: ${p.source})`);
  };
  const ss = findSteadyState(model, values, startingValues(model, values)).values;
  const lines: string[] = [];
  lines.push(`// ${str(description.title)}`);
  lines.push(
    `// Model type ${description.type}. Exported by EconAgents for Dynare 5 (run: dynare ${modFileName(model)} nograph).`,
  );
  lines.push(`// Calibration: ${str(description.calibrationSource)}`);
  lines.push('');
  lines.push('var');
  description.endogenous.forEach((v) => lines.push(`  ${v.name} (long_name='${str(v.label)}')`));
  lines.push(';');
  if (exo.length > 0) {
    lines.push('');
    lines.push('varexo');
    description.exogenous.forEach((v) => lines.push(`  ${v.name} (long_name='${str(v.label)}')`));
    lines.push(';');
  }
  lines.push('');
  lines.push('parameters');
  description.parameters.forEach((p) => lines.push(`  ${p.name} (long_name='${str(p.label)}')`));
  lines.push(';');
  lines.push('');
  const derived = new Set(model.derived.map((d) => d.index));
  description.parameters.forEach((p, i) => {
    const comment = sourceOf(p.name, i);
    if (derived.has(i) && p.expr && overrides[p.name] === undefined) {
      lines.push(`${p.name} = ${p.expr}; // ${comment}`);
    } else {
      lines.push(`${p.name} = ${num(values[i] as number)}; // ${comment}`);
    }
  });
  lines.push('');
  lines.push('model;');
  model.equations.forEach((eq) => {
    lines.push(`  [name='${str(eq.label)}']`);
    lines.push(`  ${equationText(eq.expr)};`);
  });
  lines.push('end;');
  lines.push('');
  lines.push(
    "// The steady state computed by EconAgents; steady checks it with Dynare's own solver.",
  );
  lines.push('initval;');
  endo.forEach((name, i) => lines.push(`  ${name} = ${num(ss[i] as number)};`));
  lines.push('end;');
  lines.push('');

  if (kind === 'stochastic') {
    lines.push('steady;');
    lines.push('check;');
    if (exo.length > 0) {
      lines.push('');
      lines.push('shocks;');
      description.exogenous.forEach((s) => lines.push(`  var ${s.name}; stderr ${s.stderr};`));
      for (const { shocks, kind: what, value } of description.shockCorrelations) {
        const text = typeof value === 'number' ? num(value) : parameterFormula(model, value);
        lines.push(`  ${what === 'corr' ? 'corr' : 'var'} ${shocks[0]}, ${shocks[1]} = ${text};`);
      }
      lines.push('end;');
    }
    lines.push('');
    lines.push(
      `stoch_simul(order=1, irf=${options.irfPeriods ?? DEFAULT_IRF_PERIODS}, periods=${options.periods ?? 0}, nograph);`,
    );
  } else {
    const scenario = description.scenario;
    const periods = options.periods ?? DEFAULT_SIMULATION_PERIODS;
    lines.push('steady;');
    if (scenario) {
      lines.push(`// Scenario: ${str(scenario.title)}`);
      const factors = Object.entries(scenario.initialFactor);
      if (factors.length > 0) {
        lines.push('histval;');
        for (const [name, factor] of factors) {
          const i = endo.indexOf(name);
          lines.push(`  ${name}(0) = ${num((ss[i] as number) * factor)};`);
        }
        lines.push('end;');
      }
      const changes = Object.entries(scenario.changes);
      if (changes.length > 0) {
        for (const [name, value] of changes) lines.push(`${name} = ${num(value)};`);
        // derived parameters that depend on the changed ones are re-evaluated by Dynare
        description.parameters.forEach((p, i) => {
          if (derived.has(i) && p.expr) lines.push(`${p.name} = ${p.expr};`);
        });
        const terminal = findSteadyState(
          model,
          parameterVector(model, { ...overrides, ...scenario.changes }),
          ss,
        ).values;
        lines.push('endval;');
        endo.forEach((name, i) => lines.push(`  ${name} = ${num(terminal[i] as number)};`));
        lines.push('end;');
        lines.push('steady;');
      }
    }
    lines.push(`perfect_foresight_setup(periods=${periods});`);
    lines.push('perfect_foresight_solver;');
  }
  if (options.appendVerbatim) {
    lines.push('');
    lines.push('verbatim;');
    lines.push(options.appendVerbatim);
    lines.push('end;');
  }
  return `${lines.join('\n')}\n`;
}
