import {
  modelDescriptionSchema,
  type ModelDescription,
  type ModelDescriptionInput,
} from '../../../common/teams/model';
import { ModelError } from './errors';
import {
  callsFunction,
  compile,
  differentiate,
  ExpressionError,
  parseEquation,
  parseExpression,
  RESERVED_NAMES,
  symbolsIn,
  type Compiled,
  type Expr,
  type Lag,
  type SymbolRole,
} from './expr';

/**
 * A model description turned into something the solvers can evaluate: symbol tables, each
 * equation's residual and its exact first derivatives (symbolic), and the parameter values.
 *
 * Value vector layout used by every compiled function (n endogenous, m shocks, p parameters):
 *   [ y(-1) : n | y : n | y(+1) : n | u : m | params : p ]
 */
export interface CompiledEquation {
  label: string;
  text: string;
  expr: Expr;
  residual: Compiled;
  /** Non-zero first derivatives: column in [y(-1) | y | y(+1) | u] (width 3n + m). */
  derivatives: { column: number; fn: Compiled }[];
}

export interface CompiledModel {
  description: ModelDescription;
  endo: string[];
  exo: string[];
  params: string[];
  equations: CompiledEquation[];
  /** Endogenous indices appearing with a lag, in declaration order (the state variables). */
  lagged: number[];
  /** Endogenous indices appearing with a lead (forward-looking variables). */
  leads: number[];
  /** For each shock, the index of its standard-deviation parameter. */
  stderrParam: number[];
  /** Off-diagonal terms of the shock covariance: shock indices, kind and value over parameters. */
  correlations: { first: number; second: number; kind: 'corr' | 'cov'; fn: Compiled }[];
  /** Derived parameters as compiled formulas over earlier parameters (index, fn). */
  derived: { index: number; fn: Compiled }[];
  /** Steady-state formulas over parameters and earlier variables (index, fn). */
  steadyFormulas: { index: number; fn: Compiled }[];
  steadyNumbers: { index: number; value: number }[];
  /** Base parameter values (numbers; derived ones filled by `parameterVector`). */
  baseValues: Float64Array;
  /** Whether an equation uses Dynare's steady_state() operator. */
  usesSteadyStateOperator: boolean;
}

export function describeEquation(index: number, label: string): string {
  return `equation ${index + 1}${label ? ` (${label})` : ''}`;
}

/** Validates, parses and differentiates a model description. Throws ModelError. */
export function compileModel(input: ModelDescriptionInput | ModelDescription): CompiledModel {
  const parsed = modelDescriptionSchema.safeParse(input);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.') || 'model'}: ${i.message}`);
    throw new ModelError('invalid_model', `The model description is not valid: ${lines[0]}`, lines);
  }
  const description = parsed.data;
  const endo = description.endogenous.map((v) => v.name);
  const exo = description.exogenous.map((v) => v.name);
  const params = description.parameters.map((v) => v.name);

  const roles = new Map<string, SymbolRole>();
  const problems: string[] = [];
  for (const [list, role, what] of [
    [endo, 'endo', 'variable'],
    [exo, 'exo', 'shock'],
    [params, 'param', 'parameter'],
  ] as const) {
    for (const name of list) {
      if (RESERVED_NAMES.has(name)) problems.push(`the ${what} name '${name}' is reserved`);
      else if (roles.has(name)) problems.push(`the name '${name}' is declared twice`);
      roles.set(name, role);
    }
  }
  if (description.equations.length !== endo.length) {
    problems.push(
      `the model has ${description.equations.length} equations for ${endo.length} endogenous variables; the counts must be equal`,
    );
  }
  for (const shock of description.exogenous) {
    if (roles.get(shock.stderr) !== 'param') {
      problems.push(
        `shock '${shock.name}': its stderr '${shock.stderr}' is not a declared parameter`,
      );
    }
  }
  const pairs = new Set<string>();
  for (const { shocks } of description.shockCorrelations) {
    const [a, b] = shocks;
    const undeclared = shocks.filter((s) => roles.get(s) !== 'exo');
    if (undeclared.length > 0) {
      problems.push(
        `the shock correlation ${a}, ${b} names ${undeclared.map((s) => `'${s}'`).join(' and ')}, not a declared shock`,
      );
    } else if (a === b) {
      problems.push(`the shock correlation ${a}, ${b} pairs a shock with itself`);
    } else {
      const key = [a, b].sort().join(',');
      if (pairs.has(key)) problems.push(`the correlation of shocks ${a} and ${b} is given twice`);
      pairs.add(key);
    }
  }
  if (problems.length > 0) {
    throw new ModelError(
      'invalid_model',
      `The model description is not valid: ${problems[0]}`,
      problems,
    );
  }

  const n = endo.length;
  const m = exo.length;
  const endoIndex = new Map(endo.map((name, i) => [name, i]));
  const exoIndex = new Map(exo.map((name, i) => [name, i]));
  const paramIndex = new Map(params.map((name, i) => [name, i]));
  const base = 3 * n + m;
  const slot = (name: string, role: SymbolRole, lag: Lag): number => {
    if (role === 'endo') return (lag + 1) * n + (endoIndex.get(name) as number);
    if (role === 'exo') return 3 * n + (exoIndex.get(name) as number);
    return base + (paramIndex.get(name) as number);
  };

  // Derived parameters may use only parameters declared before them (as in a .mod file).
  const baseValues = new Float64Array(params.length);
  const derived: { index: number; fn: Compiled }[] = [];
  description.parameters.forEach((p, i) => {
    if (p.value !== undefined) {
      baseValues[i] = p.value;
      return;
    }
    const resolver = (name: string): SymbolRole | undefined => {
      const j = paramIndex.get(name);
      return j !== undefined && j < i ? 'param' : undefined;
    };
    try {
      const expr = parseExpression(p.expr as string, resolver);
      derived.push({ index: i, fn: compile(expr, slot) });
    } catch (err) {
      throw formulaError(err, `parameter '${p.name}' = ${p.expr}`, 'parameters declared before it');
    }
  });

  // Correlations and covariances of shocks are numbers or formulas in parameters.
  const paramOnly = (name: string): SymbolRole | undefined =>
    paramIndex.has(name) ? 'param' : undefined;
  const correlations = description.shockCorrelations.map(({ shocks: [a, b], kind, value }) => {
    const text = typeof value === 'number' ? String(value) : value;
    try {
      return {
        first: exoIndex.get(a) as number,
        second: exoIndex.get(b) as number,
        kind,
        fn: compile(parseExpression(text, paramOnly), slot),
      };
    } catch (err) {
      throw formulaError(
        err,
        `the ${kind === 'corr' ? 'correlation' : 'covariance'} of shocks ${a} and ${b} = ${text}`,
        'parameters',
      );
    }
  });

  const equations: CompiledEquation[] = [];
  const used = new Set<number>();
  const laggedSet = new Set<number>();
  const leadSet = new Set<number>();
  const resolve = (name: string): SymbolRole | undefined => roles.get(name);
  const parseProblems: string[] = [];
  description.equations.forEach((eq, k) => {
    let expr: Expr;
    try {
      expr = parseEquation(eq.text, resolve);
    } catch (err) {
      const reason = err instanceof ExpressionError ? err.message : String(err);
      parseProblems.push(`${describeEquation(k, eq.label)} does not parse: ${reason}`);
      return;
    }
    const derivatives: { column: number; fn: Compiled }[] = [];
    for (const key of symbolsIn(expr, ['endo', 'exo'])) {
      const role = roles.get(key.name) as SymbolRole;
      const d = differentiate(expr, key);
      if (d.kind === 'num' && d.value === 0) continue;
      derivatives.push({ column: slot(key.name, role, key.lag), fn: compile(d, slot) });
      if (role === 'endo') {
        const idx = endoIndex.get(key.name) as number;
        used.add(idx);
        if (key.lag === -1) laggedSet.add(idx);
        if (key.lag === 1) leadSet.add(idx);
      }
    }
    derivatives.sort((a, b) => a.column - b.column);
    equations.push({
      label: eq.label,
      text: eq.text,
      expr,
      residual: compile(expr, slot),
      derivatives,
    });
  });
  if (parseProblems.length > 0) {
    throw new ModelError(
      'parse_error',
      `The model's equations do not parse: ${parseProblems[0]}`,
      parseProblems,
    );
  }
  const unused = endo.filter((_, i) => !used.has(i));
  if (unused.length > 0) {
    throw new ModelError(
      'invalid_model',
      `The variable${unused.length > 1 ? 's' : ''} ${unused.map((v) => `'${v}'`).join(', ')} ${unused.length > 1 ? 'appear' : 'appears'} in no equation`,
    );
  }

  // Steady-state starting values: numbers, or formulas over parameters and other variables
  // with steady-state values. Formulas are evaluated in dependency order (a stored description
  // may come back with its keys reordered), and a cycle is an error.
  const steadyNumbers: { index: number; value: number }[] = [];
  const parsedFormulas = new Map<string, { index: number; expr: Expr; text: string }>();
  const specified = new Set(Object.keys(description.steadyState));
  const resolver = (s: string): SymbolRole | undefined =>
    roles.get(s) === 'param'
      ? 'param'
      : roles.get(s) === 'endo' && specified.has(s)
        ? 'endo'
        : undefined;
  for (const [name, spec] of Object.entries(description.steadyState)) {
    const index = endoIndex.get(name);
    if (index === undefined) {
      throw new ModelError(
        'invalid_model',
        `A steady-state value is given for '${name}', which is not an endogenous variable`,
      );
    }
    if (typeof spec === 'number') {
      steadyNumbers.push({ index, value: spec });
      continue;
    }
    try {
      parsedFormulas.set(name, { index, expr: parseExpression(spec, resolver), text: spec });
    } catch (err) {
      throw formulaError(
        err,
        `steady-state value of '${name}' = ${spec}`,
        'parameters and variables that have steady-state values',
      );
    }
  }
  const steadyFormulas: { index: number; fn: Compiled }[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string, path: string[]): void => {
    const formula = parsedFormulas.get(name);
    if (!formula || state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') {
      throw new ModelError(
        'invalid_model',
        `The steady-state formulas refer to each other in a cycle: ${[...path, name].join(' -> ')}`,
      );
    }
    state.set(name, 'visiting');
    for (const dep of symbolsIn(formula.expr, ['endo'])) visit(dep.name, [...path, name]);
    state.set(name, 'done');
    steadyFormulas.push({ index: formula.index, fn: compile(formula.expr, slot) });
  };
  for (const name of parsedFormulas.keys()) visit(name, []);

  return {
    description,
    endo,
    exo,
    params,
    equations,
    lagged: [...laggedSet].sort((a, b) => a - b),
    leads: [...leadSet].sort((a, b) => a - b),
    stderrParam: description.exogenous.map((s) => paramIndex.get(s.stderr) as number),
    correlations,
    derived,
    steadyFormulas,
    steadyNumbers,
    baseValues,
    usesSteadyStateOperator: equations.some((eq) => callsFunction(eq.expr, 'steady_state')),
  };
}

function formulaError(err: unknown, what: string, allowed: string): ModelError {
  const reason = err instanceof ExpressionError ? err.message : String(err);
  return new ModelError(
    'parse_error',
    `The formula for ${what} does not parse: ${reason} (it may use ${allowed})`,
  );
}

/** Width of the value vector (see the layout above). */
export function valueWidth(model: CompiledModel): number {
  return 3 * model.endo.length + model.exo.length + model.params.length;
}

/**
 * Parameter values with overrides applied and derived parameters recomputed in order.
 * Throws when an override names no parameter or a value is not finite.
 */
export function parameterVector(
  model: CompiledModel,
  overrides: Record<string, number> = {},
): Float64Array {
  const values = Float64Array.from(model.baseValues);
  const derivedIdx = new Set(model.derived.map((d) => d.index));
  for (const [name, value] of Object.entries(overrides)) {
    const i = model.params.indexOf(name);
    if (i < 0) throw new ModelError('invalid_input', `Unknown parameter '${name}'`);
    if (derivedIdx.has(i)) {
      throw new ModelError(
        'invalid_input',
        `Parameter '${name}' is computed from other parameters and cannot be set directly`,
      );
    }
    if (!Number.isFinite(value))
      throw new ModelError('invalid_input', `Parameter '${name}' must be a finite number`);
    values[i] = value;
  }
  if (model.derived.length > 0) {
    const n = model.endo.length;
    const offset = 3 * n + model.exo.length;
    const scratch = new Float64Array(valueWidth(model));
    scratch.set(values, offset);
    for (const d of model.derived) {
      const v = d.fn(scratch);
      if (!Number.isFinite(v)) {
        throw new ModelError(
          'invalid_model',
          `Parameter '${model.params[d.index]}' evaluates to ${v}`,
        );
      }
      scratch[offset + d.index] = v;
      values[d.index] = v;
    }
  }
  return values;
}
