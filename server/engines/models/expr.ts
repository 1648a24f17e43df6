/**
 * A small, safe expression language for model equations, close to Dynare's model block:
 * numbers, declared names, `x(+1)` / `x(-1)` leads and lags, `+ - * / ^`, and the functions
 * exp, log (also ln), sqrt, abs. Text is parsed into a tree (never evaluated as code), which
 * can be differentiated symbolically, compiled to closures, and printed back as Dynare text
 * or LaTeX.
 */

export type SymbolRole = 'endo' | 'exo' | 'param';
export type Lag = -1 | 0 | 1;
export type FunctionName = 'exp' | 'log' | 'sqrt' | 'abs' | 'sign' | 'steady_state';
export type BinaryOp = '+' | '-' | '*' | '/' | '^';

export type Expr =
  | { kind: 'num'; value: number }
  | { kind: 'sym'; name: string; role: SymbolRole; lag: Lag }
  | { kind: 'neg'; arg: Expr }
  | { kind: 'bin'; op: BinaryOp; left: Expr; right: Expr }
  | { kind: 'call'; fn: FunctionName; arg: Expr };

/** An error in the text of an expression, with the position it was found at (0-based). */
export class ExpressionError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
    this.name = 'ExpressionError';
  }
}

/**
 * Functions the user may write; `ln` is Dynare's alias of `log`. `sign` is internal only.
 * `steady_state(x)` is Dynare's operator: the value of x at the steady state. The solvers
 * evaluate equations and their derivatives only at the steady state, where it equals x, so it
 * is evaluated as its argument and its derivative is zero (a perfect-foresight path, which
 * evaluates equations elsewhere, is refused for a model that uses it).
 */
const FUNCTIONS: Record<string, FunctionName> = {
  exp: 'exp',
  log: 'log',
  ln: 'log',
  sqrt: 'sqrt',
  abs: 'abs',
  steady_state: 'steady_state',
};

export const RESERVED_NAMES = new Set([...Object.keys(FUNCTIONS), 'sign', 'inf', 'nan']);

type Token =
  | { t: 'num'; value: number; pos: number }
  | { t: 'id'; value: string; pos: number }
  | { t: 'op'; value: string; pos: number }
  | { t: 'end'; pos: number };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    const num = /^(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/.exec(text.slice(i));
    if (num) {
      tokens.push({ t: 'num', value: Number(num[0]), pos: i });
      i += num[0].length;
      continue;
    }
    const id = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i));
    if (id) {
      tokens.push({ t: 'id', value: id[0], pos: i });
      i += id[0].length;
      continue;
    }
    if ('+-*/^()='.includes(ch)) {
      tokens.push({ t: 'op', value: ch, pos: i });
      i++;
      continue;
    }
    throw new ExpressionError(`unexpected character '${ch}' at position ${i + 1}`, i);
  }
  tokens.push({ t: 'end', pos: text.length });
  return tokens;
}

export type SymbolResolver = (name: string) => SymbolRole | undefined;

/**
 * Deepest nesting of brackets, functions and signs an expression may have. The parser and every
 * walk over its tree recurse, so a hostile file of 50,000 brackets would overflow the stack; no
 * economic model comes near this.
 */
export const MAX_EXPRESSION_NESTING = 200;
/**
 * Longest expression, in tokens: a chain of sums is parsed in a loop but makes a tree as deep as
 * it is long, which the walks over the tree would then recurse through.
 */
export const MAX_EXPRESSION_TOKENS = 5000;

class Parser {
  private index = 0;
  private depth = 0;
  /** Nodes written inside parentheses (to tell `a^(b^c)` from `a^b^c`). */
  private readonly bracketed = new WeakSet<Expr>();
  constructor(
    private readonly tokens: Token[],
    private readonly resolve: SymbolResolver,
  ) {
    if (tokens.length > MAX_EXPRESSION_TOKENS) {
      throw new ExpressionError(
        `expression longer than ${MAX_EXPRESSION_TOKENS} symbols and operators`,
        0,
      );
    }
  }

  private peek(): Token {
    return this.tokens[this.index] as Token;
  }

  private next(): Token {
    const tok = this.peek();
    this.index++;
    return tok;
  }

  /** Consumes an operator token (the caller has checked it is one) and returns its text. */
  private opText(): string {
    const tok = this.next();
    return tok.t === 'op' ? tok.value : '';
  }

  private isOp(value: string): boolean {
    const tok = this.peek();
    return tok.t === 'op' && tok.value === value;
  }

  private expectOp(value: string): void {
    const tok = this.next();
    if (tok.t !== 'op' || tok.value !== value) {
      throw new ExpressionError(`expected '${value}' ${describeAt(tok)}`, tok.pos);
    }
  }

  parseEquation(): { lhs: Expr; rhs: Expr | null } {
    const lhs = this.parseSum();
    let rhs: Expr | null = null;
    if (this.isOp('=')) {
      this.next();
      rhs = this.parseSum();
    }
    const tok = this.peek();
    if (tok.t !== 'end') {
      const what = tok.t === 'op' && tok.value === '=' ? "a second '='" : describe(tok);
      throw new ExpressionError(`unexpected ${what} at position ${tok.pos + 1}`, tok.pos);
    }
    return { lhs, rhs };
  }

  parseExpression(): Expr {
    const expr = this.parseSum();
    const tok = this.peek();
    if (tok.t !== 'end') {
      throw new ExpressionError(`unexpected ${describe(tok)} at position ${tok.pos + 1}`, tok.pos);
    }
    return expr;
  }

  /** Counts one level of nesting around `parse`, refusing past MAX_EXPRESSION_NESTING. */
  private nested<T>(parse: () => T): T {
    if (++this.depth > MAX_EXPRESSION_NESTING) {
      const tok = this.peek();
      throw new ExpressionError(
        `expression nested more than ${MAX_EXPRESSION_NESTING} levels deep (position ${tok.pos + 1})`,
        tok.pos,
      );
    }
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  // sum := product (('+'|'-') product)*
  private parseSum(): Expr {
    return this.nested(() => this.parseSumAtThisLevel());
  }

  private parseSumAtThisLevel(): Expr {
    let left = this.parseProduct();
    while (this.isOp('+') || this.isOp('-')) {
      const op = this.opText() as '+' | '-';
      left = { kind: 'bin', op, left, right: this.parseProduct() };
    }
    return left;
  }

  // product := unary (('*'|'/') unary)*
  private parseProduct(): Expr {
    let left = this.parseUnary();
    while (this.isOp('*') || this.isOp('/')) {
      const op = this.opText() as '*' | '/';
      left = { kind: 'bin', op, left, right: this.parseUnary() };
    }
    return left;
  }

  // unary := ('-'|'+') unary | power   (so -x^2 is -(x^2), as in Dynare and MATLAB)
  private parseUnary(): Expr {
    if (this.isOp('-')) {
      this.next();
      return { kind: 'neg', arg: this.nested(() => this.parseUnary()) };
    }
    if (this.isOp('+')) {
      this.next();
      return this.nested(() => this.parseUnary());
    }
    return this.parsePower();
  }

  // power := atom ('^' unary)?
  // `a^b^c` is refused: MATLAB (and so Dynare users) read it as (a^b)^c, mathematics as a^(b^c).
  private parsePower(): Expr {
    const base = this.parseAtom();
    if (this.isOp('^')) {
      const caret = this.next();
      const exponent = this.parseUnary();
      if (exponent.kind === 'bin' && exponent.op === '^' && !this.bracketed.has(exponent)) {
        throw new ExpressionError(
          `ambiguous power at position ${caret.pos + 1}: write (a^b)^c or a^(b^c)`,
          caret.pos,
        );
      }
      return { kind: 'bin', op: '^', left: base, right: exponent };
    }
    return base;
  }

  private parseAtom(): Expr {
    const tok = this.next();
    if (tok.t === 'num') return { kind: 'num', value: tok.value };
    if (tok.t === 'op' && tok.value === '(') {
      const inner = this.parseSum();
      this.expectOp(')');
      this.bracketed.add(inner);
      return inner;
    }
    if (tok.t === 'id') {
      const fn = FUNCTIONS[tok.value];
      if (fn) {
        if (!this.isOp('(')) {
          throw new ExpressionError(
            `function '${tok.value}' needs an argument in parentheses (position ${tok.pos + 1})`,
            tok.pos,
          );
        }
        this.next();
        const arg = this.parseSum();
        this.expectOp(')');
        return { kind: 'call', fn, arg };
      }
      const role = this.resolve(tok.value);
      if (!role) {
        throw new ExpressionError(
          `unknown name '${tok.value}' at position ${tok.pos + 1} (not a declared variable, shock or parameter)`,
          tok.pos,
        );
      }
      let lag: Lag = 0;
      if (this.isOp('(')) {
        lag = this.parseTimeIndex(tok.value, role);
      }
      return { kind: 'sym', name: tok.value, role, lag };
    }
    throw new ExpressionError(`unexpected ${describe(tok)} at position ${tok.pos + 1}`, tok.pos);
  }

  /** `(+1)`, `(1)`, `(-1)` or `(0)` after a name. */
  private parseTimeIndex(name: string, role: SymbolRole): Lag {
    const open = this.next();
    let sign = 1;
    if (this.isOp('+') || this.isOp('-')) sign = this.opText() === '-' ? -1 : 1;
    const num = this.next();
    if (num.t !== 'num' || !Number.isInteger(num.value)) {
      throw new ExpressionError(
        `'${name}(' must be followed by a time index such as (+1) or (-1) (position ${open.pos + 1})`,
        open.pos,
      );
    }
    this.expectOp(')');
    const lag = sign * num.value;
    if (lag === 0) return 0;
    if (role === 'param') {
      throw new ExpressionError(`parameter '${name}' cannot have a time index`, open.pos);
    }
    if (role === 'exo') {
      throw new ExpressionError(
        `shock '${name}' enters only at date t; give it a lead or lag through an endogenous variable`,
        open.pos,
      );
    }
    if (Math.abs(lag) > 1) {
      throw new ExpressionError(
        `'${name}(${lag > 0 ? '+' : ''}${lag})': only one-period leads and lags are supported; introduce an auxiliary variable`,
        open.pos,
      );
    }
    return lag as Lag;
  }
}

function describe(tok: Token): string {
  if (tok.t === 'end') return 'end of equation';
  if (tok.t === 'num') return `number ${tok.value}`;
  if (tok.t === 'id') return `name '${tok.value}'`;
  return `'${tok.value}'`;
}

function describeAt(tok: Token): string {
  return tok.t === 'end' ? 'before the end of the equation' : `at position ${tok.pos + 1}`;
}

/** Parses `lhs = rhs` (or an expression meaning `= 0`) into the residual `lhs - (rhs)`. */
export function parseEquation(text: string, resolve: SymbolResolver): Expr {
  const { lhs, rhs } = new Parser(tokenize(text), resolve).parseEquation();
  return rhs ? { kind: 'bin', op: '-', left: lhs, right: rhs } : lhs;
}

/** Parses a plain expression (no '='), for derived parameters and steady-state formulas. */
export function parseExpression(text: string, resolve: SymbolResolver): Expr {
  return new Parser(tokenize(text), resolve).parseExpression();
}

/* ---------- construction with light simplification ---------- */

export const num = (value: number): Expr => ({ kind: 'num', value });
const isNum = (e: Expr, v?: number): boolean =>
  e.kind === 'num' && (v === undefined || e.value === v);

export function add(a: Expr, b: Expr): Expr {
  if (isNum(a, 0)) return b;
  if (isNum(b, 0)) return a;
  if (a.kind === 'num' && b.kind === 'num') return num(a.value + b.value);
  return { kind: 'bin', op: '+', left: a, right: b };
}

export function sub(a: Expr, b: Expr): Expr {
  if (isNum(b, 0)) return a;
  if (isNum(a, 0)) return neg(b);
  if (a.kind === 'num' && b.kind === 'num') return num(a.value - b.value);
  return { kind: 'bin', op: '-', left: a, right: b };
}

export function mul(a: Expr, b: Expr): Expr {
  if (isNum(a, 0) || isNum(b, 0)) return num(0);
  if (isNum(a, 1)) return b;
  if (isNum(b, 1)) return a;
  if (a.kind === 'num' && b.kind === 'num') return num(a.value * b.value);
  return { kind: 'bin', op: '*', left: a, right: b };
}

export function div(a: Expr, b: Expr): Expr {
  if (isNum(a, 0)) return num(0);
  if (isNum(b, 1)) return a;
  return { kind: 'bin', op: '/', left: a, right: b };
}

export function pow(a: Expr, b: Expr): Expr {
  if (isNum(b, 0)) return num(1);
  if (isNum(b, 1)) return a;
  return { kind: 'bin', op: '^', left: a, right: b };
}

export function neg(a: Expr): Expr {
  if (a.kind === 'num') return num(-a.value);
  if (a.kind === 'neg') return a.arg;
  return { kind: 'neg', arg: a };
}

const call = (fn: FunctionName, arg: Expr): Expr => ({ kind: 'call', fn, arg });

/* ---------- symbolic differentiation ---------- */

export interface SymbolKey {
  name: string;
  lag: Lag;
}

/** d expr / d (name at lag), simplified. */
export function differentiate(expr: Expr, by: SymbolKey): Expr {
  const d = (e: Expr): Expr => differentiate(e, by);
  switch (expr.kind) {
    case 'num':
      return num(0);
    case 'sym':
      return expr.name === by.name && expr.lag === by.lag ? num(1) : num(0);
    case 'neg':
      return neg(d(expr.arg));
    case 'call': {
      const da = d(expr.arg);
      if (isNum(da, 0)) return num(0);
      switch (expr.fn) {
        case 'exp':
          return mul(expr, da);
        case 'log':
          return div(da, expr.arg);
        case 'sqrt':
          return div(da, mul(num(2), expr));
        case 'abs':
          return mul(call('sign', expr.arg), da);
        case 'sign':
        case 'steady_state':
          return num(0);
      }
      break;
    }
    case 'bin': {
      const { left: a, right: b } = expr;
      const da = d(a);
      const db = d(b);
      switch (expr.op) {
        case '+':
          return add(da, db);
        case '-':
          return sub(da, db);
        case '*':
          return add(mul(da, b), mul(a, db));
        case '/':
          // (a/b)' = a'/b - a b' / b^2
          return sub(div(da, b), div(mul(a, db), pow(b, num(2))));
        case '^': {
          if (isNum(db, 0)) {
            // constant exponent: b a^(b-1) a'
            if (isNum(da, 0)) return num(0);
            const exponent = b.kind === 'num' ? num(b.value - 1) : sub(b, num(1));
            return mul(mul(b, pow(a, exponent)), da);
          }
          // general case: a^b (b' log a + b a'/a)
          return mul(expr, add(mul(db, call('log', a)), div(mul(b, da), a)));
        }
      }
    }
  }
  throw new Error('unreachable');
}

/** Every (name, lag) of the given roles that occurs in the expression. */
export function symbolsIn(expr: Expr, roles: SymbolRole[]): SymbolKey[] {
  const seen = new Map<string, SymbolKey>();
  const walk = (e: Expr): void => {
    if (e.kind === 'sym') {
      if (roles.includes(e.role)) seen.set(`${e.name}@${e.lag}`, { name: e.name, lag: e.lag });
    } else if (e.kind === 'neg' || e.kind === 'call') walk(e.arg);
    else if (e.kind === 'bin') {
      walk(e.left);
      walk(e.right);
    }
  };
  walk(expr);
  return [...seen.values()];
}

/** Whether the expression calls the function anywhere. */
export function callsFunction(expr: Expr, fn: FunctionName): boolean {
  switch (expr.kind) {
    case 'num':
    case 'sym':
      return false;
    case 'neg':
      return callsFunction(expr.arg, fn);
    case 'call':
      return expr.fn === fn || callsFunction(expr.arg, fn);
    case 'bin':
      return callsFunction(expr.left, fn) || callsFunction(expr.right, fn);
  }
}

/** Replaces symbols by other expressions (used to build the static model: all lags -> 0). */
export function mapSymbols(expr: Expr, fn: (s: Extract<Expr, { kind: 'sym' }>) => Expr): Expr {
  switch (expr.kind) {
    case 'num':
      return expr;
    case 'sym':
      return fn(expr);
    case 'neg':
      return neg(mapSymbols(expr.arg, fn));
    case 'call':
      return call(expr.fn, mapSymbols(expr.arg, fn));
    case 'bin':
      return { ...expr, left: mapSymbols(expr.left, fn), right: mapSymbols(expr.right, fn) };
  }
}

/* ---------- compilation to closures ---------- */

export type Compiled = (values: Float64Array) => number;

/**
 * Compiles to a tree of closures reading a flat value vector; `slot` maps a symbol to its
 * index there. No text is ever turned into code.
 */
export function compile(
  expr: Expr,
  slot: (name: string, role: SymbolRole, lag: Lag) => number,
): Compiled {
  switch (expr.kind) {
    case 'num': {
      const v = expr.value;
      return () => v;
    }
    case 'sym': {
      const i = slot(expr.name, expr.role, expr.lag);
      return (x) => x[i] as number;
    }
    case 'neg': {
      const a = compile(expr.arg, slot);
      return (x) => -a(x);
    }
    case 'call': {
      const a = compile(expr.arg, slot);
      switch (expr.fn) {
        case 'exp':
          return (x) => Math.exp(a(x));
        case 'log':
          return (x) => Math.log(a(x));
        case 'sqrt':
          return (x) => Math.sqrt(a(x));
        case 'abs':
          return (x) => Math.abs(a(x));
        case 'sign':
          return (x) => Math.sign(a(x));
        case 'steady_state':
          return a;
      }
      break;
    }
    case 'bin': {
      const a = compile(expr.left, slot);
      const b = compile(expr.right, slot);
      switch (expr.op) {
        case '+':
          return (x) => a(x) + b(x);
        case '-':
          return (x) => a(x) - b(x);
        case '*':
          return (x) => a(x) * b(x);
        case '/':
          return (x) => a(x) / b(x);
        case '^':
          if (expr.right.kind === 'num' && expr.right.value === 2) return (x) => a(x) * a(x);
          return (x) => Math.pow(a(x), b(x));
      }
    }
  }
  throw new Error('unreachable');
}

/* ---------- printing ---------- */

const PRECEDENCE: Record<BinaryOp, number> = { '+': 1, '-': 1, '*': 2, '/': 2, '^': 4 };

/** Dynare / MATLAB text, fully re-parsable by `parseEquation`. */
export function toDynare(expr: Expr): string {
  return print(expr, 0);
}

function formatNumber(v: number): string {
  if (Number.isInteger(v) && Math.abs(v) < 1e15) return String(v);
  return String(v); // JavaScript prints the shortest text that round-trips exactly
}

function print(e: Expr, parentPrec: number): string {
  switch (e.kind) {
    case 'num': {
      const s = formatNumber(Math.abs(e.value));
      return e.value < 0 ? wrap(`-${s}`, parentPrec > 0) : s;
    }
    case 'sym':
      return e.lag === 0 ? e.name : `${e.name}(${e.lag > 0 ? '+1' : '-1'})`;
    case 'neg':
      return wrap(`-${print(e.arg, 3)}`, parentPrec > 1);
    case 'call':
      return `${e.fn}(${print(e.arg, 0)})`;
    case 'bin': {
      const p = PRECEDENCE[e.op];
      if (e.op === '^') {
        // nested powers are always bracketed: MATLAB reads a^b^c as (a^b)^c, we read a^(b^c)
        return wrap(`${print(e.left, p + 1)}^${print(e.right, p + 1)}`, parentPrec > p);
      }
      // left-associative: the right operand of - and / needs parentheses at equal precedence
      const right = print(e.right, p + 1);
      return wrap(
        `${print(e.left, p)}${e.op === '+' || e.op === '-' ? ` ${e.op} ` : e.op}${right}`,
        parentPrec > p,
      );
    }
  }
}

const wrap = (s: string, yes: boolean): string => (yes ? `(${s})` : s);

const GREEK = new Set([
  'alpha',
  'beta',
  'gamma',
  'delta',
  'epsilon',
  'varepsilon',
  'zeta',
  'eta',
  'theta',
  'iota',
  'kappa',
  'lambda',
  'mu',
  'nu',
  'xi',
  'pi',
  'rho',
  'sigma',
  'tau',
  'upsilon',
  'phi',
  'varphi',
  'chi',
  'psi',
  'omega',
  'Gamma',
  'Delta',
  'Theta',
  'Lambda',
  'Xi',
  'Pi',
  'Sigma',
  'Phi',
  'Psi',
  'Omega',
]);

/** LaTeX for a declared name: `beta` -> `\beta`, `sigma_e` -> `\sigma_{e}`, `k` -> `k`. */
export function nameToLatex(name: string): string {
  const [head = name, ...rest] = name.split('_');
  const base = GREEK.has(head) ? `\\${head}` : head.length > 1 ? `\\mathit{${head}}` : head;
  if (rest.length === 0) return base;
  const sub = rest.map((part) => (GREEK.has(part) ? `\\${part}` : part)).join(',');
  return `${base}_{${sub}}`;
}

function symLatex(
  e: Extract<Expr, { kind: 'sym' }>,
  latexOf?: (name: string) => string | undefined,
): string {
  const base = latexOf?.(e.name) ?? nameToLatex(e.name);
  if (e.role === 'param') return base;
  const t = e.lag === 0 ? 't' : e.lag > 0 ? 't+1' : 't-1';
  // a name already carrying a subscript gets the date as a second index
  return base.includes('_{') ? base.replace(/_\{([^}]*)\}$/, `_{$1,${t}}`) : `${base}_{${t}}`;
}

/** LaTeX of a residual `lhs - rhs`, shown as `lhs = rhs` when it is a top-level difference. */
export function equationToLatex(
  expr: Expr,
  latexOf?: (name: string) => string | undefined,
): string {
  if (expr.kind === 'bin' && expr.op === '-') {
    return `${latex(expr.left, 0, latexOf)} = ${latex(expr.right, 0, latexOf)}`;
  }
  return `${latex(expr, 0, latexOf)} = 0`;
}

function latex(
  e: Expr,
  parentPrec: number,
  latexOf?: (name: string) => string | undefined,
): string {
  switch (e.kind) {
    case 'num': {
      const s = formatNumber(Math.abs(e.value));
      return e.value < 0 ? wrapTex(`-${s}`, parentPrec > 0) : s;
    }
    case 'sym':
      return symLatex(e, latexOf);
    case 'neg':
      return wrapTex(`-${latex(e.arg, 3, latexOf)}`, parentPrec > 1);
    case 'call': {
      const arg = latex(e.arg, 0, latexOf);
      if (e.fn === 'sqrt') return `\\sqrt{${arg}}`;
      if (e.fn === 'abs') return `\\left|${arg}\\right|`;
      if (e.fn === 'exp') return `e^{${arg}}`;
      if (e.fn === 'steady_state') return `\\overline{${arg}}`;
      return `\\${e.fn === 'sign' ? 'operatorname{sign}' : e.fn}\\left(${arg}\\right)`;
    }
    case 'bin': {
      switch (e.op) {
        case '/':
          return `\\frac{${latex(e.left, 0, latexOf)}}{${latex(e.right, 0, latexOf)}}`;
        case '^':
          return wrapTex(
            `{${latex(e.left, 5, latexOf)}}^{${latex(e.right, 0, latexOf)}}`,
            parentPrec > 4,
          );
        case '*':
          return wrapTex(
            `${latex(e.left, 2, latexOf)} \\, ${latex(e.right, 2, latexOf)}`,
            parentPrec > 2,
          );
        default:
          return wrapTex(
            `${latex(e.left, 1, latexOf)} ${e.op} ${latex(e.right, 2, latexOf)}`,
            parentPrec > 1,
          );
      }
    }
  }
}

const wrapTex = (s: string, yes: boolean): string => (yes ? `\\left(${s}\\right)` : s);
