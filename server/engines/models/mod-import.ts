import {
  MAX_IRF_PERIODS,
  modelDescriptionSchema,
  simulationPeriodsProblem,
  type ModelDescription,
  type ModelDescriptionInput,
  type ModelType,
  type ShockCorrelation,
} from '../../../common/teams/model';
import { compileModel } from './compile';
import { isModelError, ModImportError } from './errors';
import {
  compile,
  ExpressionError,
  parseEquation,
  parseExpression,
  RESERVED_NAMES,
  symbolsIn,
  type SymbolRole,
} from './expr';
import type { RunOptions } from './run';

/**
 * Import of a Dynare .mod file into the engine's model description, so the solver runs it as
 * any library model. What a stochastic first-order model needs is accepted: `var`, `varexo`,
 * `parameters` and their values (numbers or expressions of values given before, evaluated in
 * order as Dynare does), `model;` ... `end;` (also `model(linear)`) with `#` model-local
 * variables and `[name=...]` tags, `initval`, `steady_state_model`, `steady`, `shocks` with
 * `var`, `stderr`, `corr` and covariances, and `stoch_simul` at order 1 with `irf`, `periods`
 * and `drop` (other options are listed as ignored). Anything else before stoch_simul is refused
 * with its line and the construct named (ModImportError); what follows stoch_simul is listed as
 * not run. Comments (`//`, `/* *\/`, `%`) are removed first; macro directives (`@#`) are
 * refused, as they need Dynare's preprocessor.
 */

export interface ModImportOptions {
  /** The model type the description gets (default DSGE). */
  type?: ModelType;
  /** Used in the title and the notes. */
  fileName?: string;
}

export interface StochSimulSettings {
  /** Line of the stoch_simul statement (1-based). */
  line: number;
  /** The variables listed after the options (empty: all). */
  variables: string[];
  /** Options given but not applied, as written. */
  ignoredOptions: string[];
}

export interface ModImport {
  description: ModelDescription;
  /** What stoch_simul asks for, as options of runModel. */
  runOptions: Pick<RunOptions, 'irfPeriods' | 'periods' | 'burnIn'>;
  stochSimul: StochSimulSettings | null;
  /** Statements accepted without effect, options ignored and defaults taken, one sentence each. */
  notes: string[];
  /** Statements after stoch_simul, which the engine does not run (blocks as one item). */
  notRun: { line: number; statement: string }[];
}

interface Statement {
  text: string;
  line: number;
}

interface Declared {
  name: string;
  label: string;
  latex?: string;
  line: number;
}

const NAME = /^[A-Za-z][A-Za-z0-9_]{0,39}$/;
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*/;

/** Blocks that end with `end;` (for listing what follows stoch_simul as one item each). */
const BLOCKS = new Set([
  'model',
  'initval',
  'endval',
  'histval',
  'shocks',
  'mshocks',
  'steady_state_model',
  'estimated_params',
  'estimated_params_init',
  'estimated_params_bounds',
  'observation_trends',
  'optim_weights',
  'moment_calibration',
  'irf_calibration',
  'verbatim',
  'homotopy_setup',
  'conditional_forecast_paths',
  'filter_initial_state',
  'svar_identification',
  'ramsey_constraints',
  'model_replace',
  'matched_moments',
  'occbin_constraints',
  'generate_irfs',
  'epilogue',
  'pac_target_info',
]);

/** Accepted statements that have no effect on the computation, and why. */
const WITHOUT_EFFECT: Record<string, string> = {
  check: 'the engine checks the Blanchard-Kahn conditions itself',
  resid: 'the engine reports the steady-state residuals itself',
  model_local_variable: 'it only names model-local variables',
};

const STOCH_SIMUL_APPLIED = new Set(['order', 'irf', 'periods', 'drop']);

/** Replaces comments by spaces (newlines kept, so line numbers stay right); quotes respected. */
export function stripComments(source: string): string {
  let out = '';
  let i = 0;
  let quote: string | null = null;
  while (i < source.length) {
    const ch = source[i] as string;
    const next = source[i + 1];
    if (quote) {
      out += ch;
      if (ch === quote || ch === '\n') quote = null;
      i++;
    } else if (ch === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end < 0 ? source.length : end + 2;
      out += source.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
    } else if ((ch === '/' && next === '/') || ch === '%') {
      const end = source.indexOf('\n', i);
      const stop = end < 0 ? source.length : end;
      out += ' '.repeat(stop - i);
      i = stop;
    } else {
      if (ch === "'" || ch === '"') quote = ch;
      out += ch;
      i++;
    }
  }
  return out;
}

/** Splits at `;` outside quotes; each statement keeps the line it starts on. */
function splitStatements(text: string): Statement[] {
  const out: Statement[] = [];
  let line = 1;
  let start: number | null = null;
  let current = '';
  let quote: string | null = null;
  for (const ch of text) {
    if (quote) {
      if (ch === quote || ch === '\n') quote = null;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
    } else if (ch === ';') {
      out.push({ text: current.trim(), line: start ?? line });
      current = '';
      start = null;
      continue;
    }
    if (start === null && !/\s/.test(ch)) start = line;
    if (ch === '\n') line++;
    current += ch;
  }
  if (current.trim()) out.push({ text: current.trim(), line: start ?? line });
  return out;
}

const squash = (s: string, max = 100): string => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 3)}...` : t;
};

/** Identifiers of a text replaced (numbers such as 1e5 are left alone). */
function substitute(text: string, replace: (name: string) => string | undefined): string {
  return text.replace(
    /(\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)|([A-Za-z_][A-Za-z0-9_]*)/g,
    (whole: string, numeral: string | undefined, id: string | undefined) =>
      numeral !== undefined || id === undefined ? whole : (replace(id) ?? whole),
  );
}

/** `name`, `name $tex$`, `name (long_name='...')`, separated by commas or spaces. */
function parseDeclarations(body: string, line: number, what: string): Declared[] {
  const out: Declared[] = [];
  let i = 0;
  while (i < body.length) {
    const ch = body[i] as string;
    if (/[\s,]/.test(ch)) {
      i++;
      continue;
    }
    const id = IDENT.exec(body.slice(i));
    if (!id) {
      throw new ModImportError(
        line,
        what,
        `the ${what} declaration has '${squash(body.slice(i), 20)}' where a name should be`,
      );
    }
    const name = id[0];
    i += name.length;
    let latex: string | undefined;
    let label = name;
    while (i < body.length && /\s/.test(body[i] as string)) i++;
    if (body[i] === '$') {
      const end = body.indexOf('$', i + 1);
      if (end < 0)
        throw new ModImportError(line, what, `the TeX name of '${name}' has no closing $`);
      latex = body.slice(i + 1, end).trim();
      i = end + 1;
      while (i < body.length && /\s/.test(body[i] as string)) i++;
    }
    if (body[i] === '(') {
      let depth = 0;
      let j = i;
      let quote: string | null = null;
      for (; j < body.length; j++) {
        const c = body[j] as string;
        if (quote) {
          if (c === quote) quote = null;
        } else if (c === "'" || c === '"') quote = c;
        else if (c === '(') depth++;
        else if (c === ')' && --depth === 0) break;
      }
      const options = body.slice(i + 1, j);
      const long = /long_name\s*=\s*(?:'([^']*)'|"([^"]*)")/.exec(options);
      if (long) label = (long[1] ?? long[2] ?? name).trim() || name;
      i = j + 1;
    }
    if (!NAME.test(name)) {
      throw new ModImportError(
        line,
        what,
        `the name '${name}' cannot be used here: a name starts with a letter and has at most 40 letters, digits and _`,
      );
    }
    if (RESERVED_NAMES.has(name)) {
      throw new ModImportError(
        line,
        what,
        `the name '${name}' is a function name in the engine's equations`,
      );
    }
    out.push({
      name,
      label: label.slice(0, 200),
      ...(latex ? { latex: latex.slice(0, 200) } : {}),
      line,
    });
  }
  return out;
}

/** Options of `name(a=1, b, c=(x y))`: the text in the outer parentheses split at commas. */
function splitOptions(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if ('([{'.includes(ch)) depth++;
    if (')]}'.includes(ch)) depth--;
    if (ch === ',' && depth === 0) {
      if (current.trim()) out.push(current.trim());
      current = '';
    } else current += ch;
  }
  if (current.trim()) out.push(current.trim());
  return out;
}

/** `head(options) rest`: the options text (null without parentheses) and the rest. */
function headOptions(text: string, head: string): { options: string | null; rest: string } {
  const after = text.slice(head.length).trimStart();
  if (!after.startsWith('(')) return { options: null, rest: after };
  let depth = 0;
  for (let j = 0; j < after.length; j++) {
    if (after[j] === '(') depth++;
    if (after[j] === ')' && --depth === 0) {
      return { options: after.slice(1, j), rest: after.slice(j + 1).trim() };
    }
  }
  return { options: after.slice(1), rest: '' };
}

class Importer {
  private readonly statements: Statement[];
  private k = 0;
  readonly notes: string[] = [];
  readonly notRun: { line: number; statement: string }[] = [];
  private readonly endo: Declared[] = [];
  private readonly exo: Declared[] = [];
  private readonly params: Declared[] = [];
  /** Values of parameters and of mod-file constants, in assignment order (as Dynare evaluates). */
  private readonly values = new Map<string, number>();
  private readonly valueSource = new Map<string, string>();
  private readonly constants = new Set<string>();
  private readonly derived: { name: string; expr: string; line: number }[] = [];
  private readonly equations: { label: string; text: string }[] = [];
  private modelLine = 0;
  private readonly steady: Record<string, number | string> = {};
  private readonly stderr = new Map<
    string,
    { param?: string; value?: number; line: number; note: string }
  >();
  private readonly correlations = new Map<string, ShockCorrelation>();
  private stochSimul: StochSimulSettings | null = null;
  private readonly runOptions: ModImport['runOptions'] = {};
  private linear = false;

  constructor(source: string) {
    const text = stripComments(source);
    text.split('\n').forEach((l, i) => {
      const directive = /^\s*@#\s*([A-Za-z]*)/.exec(l);
      const construct = directive ? `@#${directive[1] ?? ''}` : l.includes('@{') ? '@{...}' : null;
      if (construct) {
        throw new ModImportError(
          i + 1,
          construct,
          `the macro ${directive ? 'directive' : 'expression'} ${construct} needs Dynare's macro preprocessor, which the importer does not run; expand the macros first (dynare file.mod savemacro) and import the expanded file`,
        );
      }
    });
    this.statements = splitStatements(text).filter((s) => s.text !== '');
  }

  private role(name: string): 'endo' | 'exo' | 'param' | 'constant' | undefined {
    if (this.endo.some((d) => d.name === name)) return 'endo';
    if (this.exo.some((d) => d.name === name)) return 'exo';
    if (this.params.some((d) => d.name === name)) return 'param';
    if (this.constants.has(name)) return 'constant';
    return undefined;
  }

  private declare(list: Declared[], items: Declared[], what: string): void {
    for (const d of items) {
      if (this.role(d.name) || this.derived.some((x) => x.name === d.name)) {
        throw new ModImportError(d.line, what, `'${d.name}' is declared twice`);
      }
      list.push(d);
    }
  }

  /** Evaluates an expression over parameters and constants that have values now. */
  private evaluate(text: string, line: number, what: string, extra?: Map<string, number>): number {
    const env = new Map([...this.values, ...(extra ?? [])]);
    const names = [...env.keys()];
    let value: number;
    try {
      const expr = parseExpression(text, (n) => (env.has(n) ? 'param' : undefined));
      value = compile(expr, (n) => names.indexOf(n))(Float64Array.from(env.values()));
    } catch (err) {
      if (!(err instanceof ExpressionError)) throw err;
      const unknown = /unknown name '([^']+)'/.exec(err.message)?.[1];
      const why =
        unknown && this.role(unknown) === 'param'
          ? `it uses the parameter '${unknown}' before it is given a value`
          : unknown && this.role(unknown)
            ? `it uses '${unknown}', which has no value here`
            : err.message;
      throw new ModImportError(line, what, `the value of ${what} cannot be computed: ${why}`);
    }
    if (!Number.isFinite(value)) {
      throw new ModImportError(line, what, `${what} evaluates to ${value}`);
    }
    return value;
  }

  private next(): Statement | undefined {
    return this.statements[this.k++];
  }

  /** Statements up to `end`; refuses a block without one. */
  private block(line: number, name: string): Statement[] {
    const body: Statement[] = [];
    for (let s = this.next(); s; s = this.next()) {
      if (s.text === 'end') return body;
      body.push(s);
    }
    throw new ModImportError(line, name, `the ${name} block has no end;`);
  }

  run(): void {
    for (let s = this.next(); s; s = this.next()) {
      const head = IDENT.exec(s.text)?.[0] ?? '';
      if (head === 'stoch_simul') {
        this.readStochSimul(s);
        this.listNotRun();
        return;
      }
      this.topLevel(s, head);
    }
  }

  private topLevel(s: Statement, head: string): void {
    const { text, line } = s;
    const assignment = /^([A-Za-z_][A-Za-z0-9_]*)\s*=(?!=)([\s\S]*)$/.exec(text);
    if (assignment && !['var', 'varexo', 'parameters'].includes(head)) {
      this.assign(assignment[1] as string, (assignment[2] as string).trim(), line);
      return;
    }
    switch (head) {
      case 'var':
      case 'varexo':
      case 'parameters': {
        const { options, rest } = headOptions(text, head);
        if (options !== null) {
          throw new ModImportError(
            line,
            `${head}(${squash(options, 30)})`,
            `'${head}(${squash(options, 30)})' is not supported: declare the variables without options (log transformations and deflators change the model)`,
          );
        }
        const what = head === 'var' ? 'var' : head === 'varexo' ? 'varexo' : 'parameters';
        const list = head === 'var' ? this.endo : head === 'varexo' ? this.exo : this.params;
        this.declare(list, parseDeclarations(rest, line, what), what);
        return;
      }
      case 'model':
        this.readModel(s);
        return;
      case 'initval':
        this.readInitval(s);
        return;
      case 'steady_state_model':
        this.readSteadyStateModel(s);
        return;
      case 'shocks':
        this.readShocks(s);
        return;
      case 'steady': {
        const { options } = headOptions(text, head);
        if (options)
          this.notes.push(
            `Line ${line}: steady(${squash(options, 40)}): options ignored; the engine finds the steady state by Newton's method from the given values.`,
          );
        return;
      }
      default:
        if (
          head in WITHOUT_EFFECT &&
          (head === 'model_local_variable' || headOptions(text, head).rest === '')
        ) {
          this.notes.push(`Line ${line}: '${head}' has no effect here (${WITHOUT_EFFECT[head]}).`);
          return;
        }
        throw new ModImportError(
          line,
          head || squash(text, 20),
          `'${squash(text, 60)}' is not supported before stoch_simul (the importer accepts var, varexo, parameters and their values, model, initval, steady_state_model, steady, shocks and stoch_simul)`,
        );
    }
  }

  private assign(name: string, text: string, line: number): void {
    const role = this.role(name);
    if (role === 'endo' || role === 'exo') {
      throw new ModImportError(
        line,
        `${name} =`,
        `'${name}' is a ${role === 'endo' ? 'variable' : 'shock'}; a value outside initval or steady_state_model is not supported`,
      );
    }
    if (!role && !NAME.test(name)) {
      throw new ModImportError(line, `${name} =`, `'${name}' cannot name a value here`);
    }
    const value = this.evaluate(text, line, `'${name}'`);
    if (!role) this.constants.add(name);
    this.values.set(name, value);
    this.valueSource.set(
      name,
      /^[-+]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)
        ? `.mod file, line ${line}`
        : `.mod file, line ${line}: ${name} = ${squash(text, 200)}`,
    );
  }

  private readModel(s: Statement): void {
    const { options, rest } = headOptions(s.text, 'model');
    if (rest !== '')
      throw new ModImportError(s.line, 'model', `'${squash(s.text, 40)}' is not a model block`);
    for (const option of options ? splitOptions(options) : []) {
      if (option === 'linear') this.linear = true;
      else if (
        ['use_dll', 'block', 'bytecode', 'no_static'].includes(option.split('=')[0]?.trim() ?? '')
      )
        this.notes.push(
          `Line ${s.line}: model option '${option}' ignored (it only changes how Dynare computes).`,
        );
      else
        throw new ModImportError(
          s.line,
          `model(${option})`,
          `the model option '${option}' is not supported`,
        );
    }
    if (this.modelLine)
      throw new ModImportError(s.line, 'model', 'a second model block is not supported');
    this.modelLine = s.line;
    const body = this.block(s.line, 'model');
    const locals = new Map<string, string>(); // locals with variables: substituted as text
    const resolve = (n: string): SymbolRole | undefined => {
      const r = this.role(n);
      if (r === 'endo' || r === 'exo') return r;
      if (r === 'param' || this.derived.some((d) => d.name === n)) return 'param';
      return undefined;
    };
    for (const st of body) {
      let text = st.text;
      if (text.startsWith('#')) {
        const local = /^#\s*([A-Za-z_][A-Za-z0-9_]*)\s*=([\s\S]*)$/.exec(text);
        if (!local)
          throw new ModImportError(
            st.line,
            '#',
            `'${squash(text, 40)}' is not a model-local variable`,
          );
        const name = local[1] as string;
        if (
          this.role(name) ||
          locals.has(name) ||
          this.derived.some((d) => d.name === name) ||
          !NAME.test(name) ||
          RESERVED_NAMES.has(name)
        ) {
          throw new ModImportError(
            st.line,
            `#${name}`,
            `the model-local variable '${name}' reuses a name`,
          );
        }
        const body = substitute((local[2] as string).trim(), (n) => locals.get(n)).replace(
          /\s+/g,
          ' ',
        );
        let expr;
        try {
          expr = parseEquation(body, resolve);
        } catch (err) {
          if (!(err instanceof ExpressionError)) throw err;
          throw new ModImportError(
            st.line,
            `#${name}`,
            `the model-local variable '${name}' does not parse: ${err.message}`,
          );
        }
        if (symbolsIn(expr, ['endo', 'exo']).length === 0) {
          // a function of parameters only: a parameter computed from the others
          this.derived.push({ name, expr: body, line: st.line });
        } else {
          locals.set(name, `(${body})`);
        }
        continue;
      }
      let label = '';
      while (text.startsWith('[')) {
        const close = text.indexOf(']');
        if (close < 0) throw new ModImportError(st.line, '[', 'an equation tag has no closing ]');
        const tags = text.slice(1, close);
        const name = /(?:^|,)\s*name\s*=\s*(?:'([^']*)'|"([^"]*)")/.exec(tags);
        if (name) label = (name[1] ?? name[2] ?? '').trim();
        if (/(?:^|,)\s*mcp\s*=/.test(tags)) {
          throw new ModImportError(
            st.line,
            '[mcp=...]',
            'a complementarity condition (mcp tag) is not supported',
          );
        }
        text = text.slice(close + 1).trim();
      }
      const equation = substitute(text, (n) => locals.get(n)).replace(/\s+/g, ' ');
      try {
        parseEquation(equation, resolve);
      } catch (err) {
        if (!(err instanceof ExpressionError)) throw err;
        throw new ModImportError(
          st.line,
          'model equation',
          `the equation '${squash(text, 60)}' is not accepted: ${err.message}`,
        );
      }
      this.equations.push({
        label: (label || `Equation ${this.equations.length + 1} (line ${st.line})`).slice(0, 200),
        text: equation,
      });
    }
  }

  private readInitval(s: Statement): void {
    const { options, rest } = headOptions(s.text, 'initval');
    if (rest !== '')
      throw new ModImportError(
        s.line,
        'initval',
        `'${squash(s.text, 40)}' is not an initval block`,
      );
    if (options && options.trim() !== 'all_values_required')
      this.notes.push(`Line ${s.line}: initval option '${options.trim()}' ignored.`);
    const known = new Map<string, number>();
    for (const st of this.block(s.line, 'initval')) {
      const a = /^([A-Za-z_][A-Za-z0-9_]*)\s*=([\s\S]*)$/.exec(st.text);
      if (!a)
        throw new ModImportError(
          st.line,
          'initval',
          `'${squash(st.text, 40)}' is not an assignment`,
        );
      const name = a[1] as string;
      const role = this.role(name);
      const value = this.evaluate((a[2] as string).trim(), st.line, `'${name}'`, known);
      if (role === 'exo') {
        if (value !== 0) {
          throw new ModImportError(
            st.line,
            `initval ${name}`,
            `the shock '${name}' is given the steady-state value ${value}; only zero is supported (shocks have mean zero)`,
          );
        }
        continue;
      }
      if (role !== 'endo')
        throw new ModImportError(
          st.line,
          `initval ${name}`,
          `'${name}' is not an endogenous variable`,
        );
      known.set(name, value);
      if (typeof this.steady[name] !== 'string') this.steady[name] = value;
    }
  }

  private readSteadyStateModel(s: Statement): void {
    if (s.text !== 'steady_state_model')
      throw new ModImportError(
        s.line,
        'steady_state_model',
        `'${squash(s.text, 40)}' is not supported`,
      );
    const temporaries = new Map<string, string>();
    const assigned = new Set<string>();
    const numbers = new Map<string, number>();
    for (const st of this.block(s.line, 'steady_state_model')) {
      const a = /^([A-Za-z_][A-Za-z0-9_]*)\s*=([\s\S]*)$/.exec(st.text);
      if (!a) {
        throw new ModImportError(
          st.line,
          'steady_state_model',
          `'${squash(st.text, 40)}' is not supported in steady_state_model (only name = expression)`,
        );
      }
      const name = a[1] as string;
      const formula = substitute((a[2] as string).trim(), (n) => temporaries.get(n)).replace(
        /\s+/g,
        ' ',
      );
      const value = this.evaluate(
        formula,
        st.line,
        `'${name}'`,
        new Map([...numbers, ...this.derivedValues()]),
      );
      const role = this.role(name);
      if (role === 'endo') {
        assigned.add(name);
        numbers.set(name, value);
        try {
          parseExpression(formula, (n) =>
            this.role(n) === 'param' || this.derived.some((d) => d.name === n)
              ? 'param'
              : assigned.has(n) && n !== name
                ? 'endo'
                : undefined,
          );
          this.steady[name] =
            formula.length <= 500 && !this.usesConstant(formula) ? formula : value;
        } catch {
          this.steady[name] = value;
        }
      } else if (role === undefined) {
        temporaries.set(name, `(${formula})`);
        numbers.set(name, value);
      } else {
        throw new ModImportError(
          st.line,
          `steady_state_model ${name}`,
          `'${name}' is not an endogenous variable`,
        );
      }
    }
  }

  private usesConstant(text: string): boolean {
    let found = false;
    substitute(text, (n) => {
      if (this.constants.has(n)) found = true;
      return undefined;
    });
    return found;
  }

  /** Values of the model-local parameters at the current parameter values. */
  private derivedValues(): Map<string, number> {
    const out = new Map<string, number>();
    for (const d of this.derived)
      out.set(d.name, this.evaluate(d.expr, d.line, `'${d.name}'`, out));
    return out;
  }

  private shockName(name: string, line: number): string {
    if (this.role(name) !== 'exo') {
      throw new ModImportError(
        line,
        `shocks ${name}`,
        `'${name}' is not a declared shock (varexo); shocks on other variables are not supported`,
      );
    }
    return name;
  }

  private readShocks(s: Statement): void {
    const { options, rest } = headOptions(s.text, 'shocks');
    if (rest !== '')
      throw new ModImportError(s.line, 'shocks', `'${squash(s.text, 40)}' is not a shocks block`);
    if (options && options.trim() !== 'overwrite')
      throw new ModImportError(
        s.line,
        `shocks(${options})`,
        `the shocks option '${options}' is not supported`,
      );
    let current: string | null = null;
    for (const st of this.block(s.line, 'shocks')) {
      const text = st.text;
      const single = /^var\s+([A-Za-z_][A-Za-z0-9_]*)$/.exec(text);
      const variance = /^var\s+([A-Za-z_][A-Za-z0-9_]*)\s*=([\s\S]+)$/.exec(text);
      const pair =
        /^(var|corr)\s+([A-Za-z_][A-Za-z0-9_]*)\s*,\s*([A-Za-z_][A-Za-z0-9_]*)\s*=([\s\S]+)$/.exec(
          text,
        );
      const stderr = /^stderr\s+([\s\S]+)$/.exec(text);
      if (single) {
        current = this.shockName(single[1] as string, st.line);
      } else if (stderr) {
        if (!current)
          throw new ModImportError(st.line, 'stderr', "'stderr' must follow 'var name;'");
        const formula = (stderr[1] as string).trim();
        if (this.role(formula) === 'param') {
          this.stderr.set(current, { param: formula, line: st.line, note: '' });
        } else {
          const value = this.evaluate(formula, st.line, `the standard deviation of '${current}'`);
          this.stderr.set(current, { value, line: st.line, note: `stderr ${squash(formula, 60)}` });
        }
        current = null;
      } else if (variance) {
        const name = this.shockName(variance[1] as string, st.line);
        const formula = (variance[2] as string).trim();
        const v = this.evaluate(formula, st.line, `the variance of '${name}'`);
        if (v < 0)
          throw new ModImportError(
            st.line,
            `var ${name}`,
            `the variance of '${name}' is negative (${v})`,
          );
        this.stderr.set(name, {
          value: Math.sqrt(v),
          line: st.line,
          note: `variance ${squash(formula, 60)}`,
        });
        current = null;
      } else if (pair) {
        const kind = pair[1] === 'corr' ? 'corr' : 'cov';
        const a = this.shockName(pair[2] as string, st.line);
        const b = this.shockName(pair[3] as string, st.line);
        if (a === b)
          throw new ModImportError(
            st.line,
            `${pair[1]} ${a}, ${b}`,
            'a shock is paired with itself',
          );
        const formula = (pair[4] as string).trim();
        const value: number | string =
          this.role(formula) === 'param'
            ? formula
            : this.evaluate(
                formula,
                st.line,
                `the ${kind === 'corr' ? 'correlation' : 'covariance'} of '${a}' and '${b}'`,
              );
        this.correlations.set([a, b].sort().join(','), { shocks: [a, b], kind, value });
        current = null;
      } else {
        const word = IDENT.exec(text)?.[0] ?? squash(text, 20);
        throw new ModImportError(
          st.line,
          `shocks: ${word}`,
          word === 'periods' || word === 'values'
            ? 'deterministic shocks (periods/values) are not supported; the engine computes stochastic first-order results'
            : `'${squash(text, 60)}' is not supported in a shocks block (use var, stderr, corr or var a, b = covariance)`,
        );
      }
    }
  }

  private readStochSimul(s: Statement): void {
    const { options, rest } = headOptions(s.text, 'stoch_simul');
    const ignored: string[] = [];
    let order: string | null = null;
    for (const option of options ? splitOptions(options) : []) {
      const [key = '', ...valueParts] = option.split('=');
      const name = key.trim();
      const value = valueParts.join('=').trim();
      if (name === 'loglinear') {
        throw new ModImportError(
          s.line,
          'stoch_simul(loglinear)',
          'the loglinear option changes the solution (a log-linear approximation) and is not supported; write the model in logs instead',
        );
      }
      if (!STOCH_SIMUL_APPLIED.has(name)) {
        ignored.push(option);
        continue;
      }
      const n = Number(value);
      if (!Number.isInteger(n) || n < 0) {
        throw new ModImportError(
          s.line,
          `stoch_simul(${name})`,
          `stoch_simul option ${name} must be a whole number (got '${value}')`,
        );
      }
      if (name === 'order') {
        order = value;
        if (n !== 1) {
          throw new ModImportError(
            s.line,
            `stoch_simul(order=${value})`,
            `stoch_simul(order=${value}) is not supported: the engine computes first-order (order=1) solutions only`,
          );
        }
      } else if (name === 'irf') {
        if (n >= 1 && n <= MAX_IRF_PERIODS) this.runOptions.irfPeriods = n;
        else
          this.notes.push(
            `Line ${s.line}: stoch_simul irf=${n}: Dynare ${n === 0 ? 'computes no impulse responses' : 'computes more periods'}; the engine computes ${n === 0 ? 'its default of 40' : MAX_IRF_PERIODS} periods.`,
          );
      } else if (name === 'periods') {
        if (n === 0) {
          this.notes.push(
            `Line ${s.line}: stoch_simul periods=0: Dynare reports theoretical moments only; the engine also simulates its default number of periods.`,
          );
        } else if (simulationPeriodsProblem(n)) {
          this.notes.push(
            `Line ${s.line}: stoch_simul periods=${n} is outside what the engine simulates (${simulationPeriodsProblem(n)}); its default is used. With periods > 0 Dynare reports moments of the simulation, the engine reports theoretical and simulated moments.`,
          );
        } else {
          this.runOptions.periods = n;
          this.notes.push(
            `Line ${s.line}: stoch_simul periods=${n}: with periods > 0 Dynare reports moments of its simulation; the engine reports theoretical moments and, separately, the moments of its own simulation of ${n} periods.`,
          );
        }
      } else if (name === 'drop') {
        if (n <= 10_000) this.runOptions.burnIn = n;
      }
    }
    if (order === null) {
      this.notes.push(
        this.linear
          ? `Line ${s.line}: stoch_simul gives no order; the model is linear, so Dynare solves it at order 1, as the engine does.`
          : `Line ${s.line}: stoch_simul gives no order: Dynare's default is order=2; the engine computes the first-order solution (order=1).`,
      );
    }
    if (ignored.length > 0) {
      this.notes.push(`Line ${s.line}: stoch_simul options ignored: ${ignored.join(', ')}.`);
    }
    const variables = rest.split(/[\s,]+/).filter(Boolean);
    for (const v of variables) {
      if (this.role(v) !== 'endo') {
        throw new ModImportError(
          s.line,
          `stoch_simul ${v}`,
          `stoch_simul lists '${v}', which is not an endogenous variable`,
        );
      }
    }
    this.stochSimul = { line: s.line, variables, ignoredOptions: ignored };
  }

  private listNotRun(): void {
    for (let s = this.next(); s; s = this.next()) {
      const head = IDENT.exec(s.text)?.[0] ?? '';
      if (BLOCKS.has(head) && !/=/.test(s.text.slice(head.length, head.length + 3))) {
        const body = [];
        let t = this.next();
        while (t && t.text !== 'end') {
          body.push(t);
          t = this.next();
        }
        this.notRun.push({
          line: s.line,
          statement: `${squash(s.text, 60)}; ... end; (${body.length} statement${body.length === 1 ? '' : 's'})`,
        });
      } else {
        // MATLAB ends a statement at a line break too (outside brackets)
        let depth = 0;
        let current = '';
        let line = s.line;
        let start = s.line;
        for (const ch of `${s.text}\n`) {
          if ('([{'.includes(ch)) depth++;
          if (')]}'.includes(ch)) depth--;
          if (ch === '\n' && depth <= 0) {
            if (current.trim())
              this.notRun.push({ line: start, statement: `${squash(current, 100)};` });
            current = '';
            start = line + 1;
          } else current += ch;
          if (ch === '\n') {
            line++;
            if (!current.trim()) start = line;
          }
        }
      }
    }
  }

  result(options: ModImportOptions): ModImport {
    if (this.endo.length === 0)
      throw new ModImportError(1, 'var', 'the file declares no endogenous variables (var)');
    if (!this.modelLine) throw new ModImportError(1, 'model', 'the file has no model block');
    if (this.equations.length !== this.endo.length) {
      throw new ModImportError(
        this.modelLine,
        'model',
        `the model block has ${this.equations.length} equations for ${this.endo.length} endogenous variables; the counts must be equal`,
      );
    }
    for (const p of this.params) {
      if (!this.values.has(p.name)) {
        throw new ModImportError(
          p.line,
          `parameters ${p.name}`,
          `the parameter '${p.name}' is never given a value`,
        );
      }
    }
    const taken = new Set(
      [...this.endo, ...this.exo, ...this.params]
        .map((d) => d.name)
        .concat(this.derived.map((d) => d.name)),
    );
    const stderrParams: ModelDescriptionInput['parameters'] = [];
    const exogenous = this.exo.map((shock) => {
      const given = this.stderr.get(shock.name);
      if (given?.param)
        return {
          name: shock.name,
          label: shock.label,
          ...(shock.latex ? { latex: shock.latex } : {}),
          stderr: given.param,
        };
      let name = `stderr_${shock.name}`.slice(0, 40);
      for (let i = 1; taken.has(name); i++) name = `${`stderr_${shock.name}`.slice(0, 36)}_${i}`;
      taken.add(name);
      stderrParams.push({
        name,
        label: `std. dev. of ${shock.name}`,
        value: given?.value ?? 0,
        source: given
          ? `.mod file, shocks block, line ${given.line} (${given.note})`
          : '.mod file: the shocks block gives this shock no variance (Dynare sets it to zero)',
      });
      return {
        name: shock.name,
        label: shock.label,
        ...(shock.latex ? { latex: shock.latex } : {}),
        stderr: name,
      };
    });
    const input: ModelDescriptionInput = {
      type: options.type ?? 'DSGE',
      title: `Imported from ${options.fileName ?? 'a Dynare .mod file'}`.slice(0, 200),
      summary:
        `A model imported from the Dynare file ${options.fileName ?? ''}: ${this.endo.length} endogenous variables, ${this.exo.length} shocks, ${this.params.length} parameters.`
          .replace(' :', ':')
          .slice(0, 2000),
      framework: '',
      references: [],
      endogenous: this.endo.map(({ name, label, latex }) => ({
        name,
        label,
        ...(latex ? { latex } : {}),
      })),
      exogenous,
      shockCorrelations: [...this.correlations.values()],
      parameters: [
        ...this.params.map(({ name, label, latex }) => ({
          name,
          label,
          ...(latex ? { latex } : {}),
          value: this.values.get(name) as number,
          source: this.valueSource.get(name) ?? '.mod file',
        })),
        ...this.derived.map(({ name, expr, line }) => ({
          name,
          label: `model-local variable ${name}`,
          expr,
          source: `.mod file, model block, line ${line} (# ${name})`,
        })),
        ...stderrParams,
      ],
      equations: this.equations,
      steadyState: this.steady,
      calibrationSource: `The parameter values of the .mod file${options.fileName ? ` ${options.fileName}` : ''}.`,
      keyVariables: (this.stochSimul?.variables ?? []).slice(0, 12),
      targets: [],
      estimated: [],
    };
    const parsed = modelDescriptionSchema.safeParse(input);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ModImportError(
        this.modelLine,
        'model',
        `the model does not fit the engine's limits: ${issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid'}`,
      );
    }
    try {
      compileModel(parsed.data);
    } catch (err) {
      if (isModelError(err)) throw new ModImportError(this.modelLine, 'model', err.message);
      throw err;
    }
    return {
      description: parsed.data,
      runOptions: this.runOptions,
      stochSimul: this.stochSimul,
      notes: this.notes,
      notRun: this.notRun,
    };
  }
}

/** Reads a .mod file into a model description; throws ModImportError naming the line. */
export function importModFile(source: string, options: ModImportOptions = {}): ModImport {
  const importer = new Importer(source);
  importer.run();
  return importer.result(options);
}
