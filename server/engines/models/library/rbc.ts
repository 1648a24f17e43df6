import type { ModelDescriptionInput } from '../../../../common/teams/model';

/** A standard real business cycle model with endogenous labour, variables in logs. */
export const rbc: ModelDescriptionInput = {
  type: 'RBC',
  title: 'Real business cycle model with labour (King, Plosser and Rebelo 1988)',
  summary:
    'A representative household chooses consumption, hours and saving; a competitive firm rents capital and labour; a persistent productivity shock is the only source of fluctuations. Variables are in logs, so impulse responses are proportional deviations.',
  framework: `**Agents.** An infinitely lived representative household with preferences $E_0\\sum_t \\beta^t\\left[\\log C_t - \\psi \\frac{N_t^{1+\\varphi}}{1+\\varphi}\\right]$ supplies labour $N_t$ and owns the capital stock. A representative competitive firm produces with the Cobb-Douglas technology $Y_t = A_t K_{t-1}^{\\alpha} N_t^{1-\\alpha}$.

**Markets.** Goods, labour and capital-rental markets are competitive and clear every period; factor prices equal marginal products ($W_t = (1-\\alpha)Y_t/N_t$, $R_t = \\alpha Y_t/K_{t-1}$). There is no money, no government and no friction.

**Assumptions.** Complete markets and a representative agent; capital depreciates at rate $\\delta$; log utility in consumption (balanced growth); the Frisch elasticity of labour supply is $1/\\varphi$; total factor productivity follows $\\log A_t = \\rho \\log A_{t-1} + \\varepsilon_t$.

**Mechanisms.** A positive productivity shock raises the marginal products of labour and capital. Intertemporal substitution makes hours and investment rise, consumption smoothing makes consumption respond less than output, and the persistence of the shock plus capital accumulation propagates the response. The model's ability to generate realistic volatility of output from measured productivity shocks is the central claim of the RBC literature (Kydland and Prescott 1982); its weak point is the volatility of hours.`,
  references: [
    {
      citation:
        'Kydland, F. E. and Prescott, E. C. (1982). Time to Build and Aggregate Fluctuations. Econometrica, 50(6), 1345-1370.',
    },
    {
      citation:
        'King, R. G., Plosser, C. I. and Rebelo, S. T. (1988). Production, Growth and Business Cycles: I. The Basic Neoclassical Model. Journal of Monetary Economics, 21(2-3), 195-232.',
    },
    {
      citation:
        'Hansen, G. D. (1985). Indivisible Labor and the Business Cycle. Journal of Monetary Economics, 16(3), 309-327.',
    },
    {
      citation:
        'Cooley, T. F. and Prescott, E. C. (1995). Economic Growth and Business Cycles. In Frontiers of Business Cycle Research, Princeton University Press.',
    },
    {
      citation:
        'King, R. G. and Rebelo, S. T. (1999). Resuscitating Real Business Cycles. In Handbook of Macroeconomics, vol. 1B, 927-1007.',
    },
  ],
  endogenous: [
    { name: 'y', label: 'output (log)', latex: 'y' },
    { name: 'c', label: 'consumption (log)', latex: 'c' },
    { name: 'inv', label: 'investment (log)', latex: 'i' },
    { name: 'k', label: 'capital stock, end of period (log)', latex: 'k' },
    { name: 'n', label: 'hours worked (log)', latex: 'n' },
    { name: 'w', label: 'real wage (log)', latex: 'w' },
    { name: 'r', label: 'rental rate of capital (log)', latex: 'r' },
    { name: 'a', label: 'total factor productivity (log)', latex: 'a' },
  ],
  exogenous: [
    { name: 'e_a', label: 'productivity innovation', latex: '\\varepsilon^a', stderr: 'sigma_a' },
  ],
  parameters: [
    {
      name: 'alpha',
      label: 'capital share',
      latex: '\\alpha',
      value: 0.36,
      source:
        "Hansen (1985): capital's share of income 0.36 (Cooley and Prescott 1995 use 0.40, with a broader measure of capital)",
    },
    {
      name: 'beta',
      label: 'discount factor (quarterly)',
      latex: '\\beta',
      value: 0.99,
      source:
        'Standard quarterly calibration: a 4% annual real interest rate (King, Plosser and Rebelo 1988)',
    },
    {
      name: 'delta',
      label: 'depreciation rate (quarterly)',
      latex: '\\delta',
      value: 0.025,
      source: 'Standard quarterly calibration: 10% a year (King and Rebelo 1999)',
    },
    {
      name: 'phi',
      label: 'inverse Frisch elasticity of labour supply',
      latex: '\\varphi',
      value: 1,
      source: 'Unit Frisch elasticity, a common benchmark (King and Rebelo 1999 discuss the range)',
    },
    {
      name: 'nbar',
      label: 'steady-state hours (share of time)',
      latex: '\\bar{n}',
      value: 1 / 3,
      source: 'Households work about a third of their available time (Cooley and Prescott 1995)',
    },
    {
      name: 'rho',
      label: 'persistence of productivity',
      latex: '\\rho',
      value: 0.95,
      source: 'Solow-residual persistence, quarterly (Cooley and Prescott 1995)',
    },
    {
      name: 'sigma_a',
      label: 'std. dev. of the productivity innovation',
      latex: '\\sigma_a',
      value: 0.007,
      source: 'Solow-residual innovations, quarterly (Cooley and Prescott 1995; Prescott 1986)',
    },
    {
      name: 'rk',
      label: 'steady-state rental rate',
      latex: 'r^k',
      expr: '1/beta - 1 + delta',
      source: 'Implied by the Euler equation in steady state',
    },
    {
      name: 'cy',
      label: 'steady-state consumption-output ratio',
      latex: 'c/y',
      expr: '1 - delta*alpha/rk',
      source: 'Implied by the steady state',
    },
    {
      name: 'psi',
      label: 'weight of leisure in utility',
      latex: '\\psi',
      expr: '(1 - alpha)/(cy*nbar^(1 + phi))',
      source: 'Calibrated so that steady-state hours equal nbar',
    },
  ],
  equations: [
    {
      label: 'Euler equation',
      text: 'exp(-c) = beta*exp(-c(+1))*(exp(r(+1)) + 1 - delta)',
      latex:
        '\\frac{1}{C_t} = \\beta E_t\\left[\\frac{1}{C_{t+1}}\\left(R_{t+1} + 1 - \\delta\\right)\\right]',
    },
    {
      label: 'Labour supply',
      text: 'psi*exp(phi*n) = exp(w - c)',
      latex: '\\psi N_t^{\\varphi} = \\frac{W_t}{C_t}',
    },
    {
      label: 'Production function',
      text: 'y = a + alpha*k(-1) + (1 - alpha)*n',
      latex: 'Y_t = A_t K_{t-1}^{\\alpha} N_t^{1-\\alpha}',
    },
    {
      label: 'Wage',
      text: 'w = log(1 - alpha) + y - n',
      latex: 'W_t = (1-\\alpha)\\frac{Y_t}{N_t}',
    },
    {
      label: 'Rental rate',
      text: 'r = log(alpha) + y - k(-1)',
      latex: 'R_t = \\alpha \\frac{Y_t}{K_{t-1}}',
    },
    {
      label: 'Capital accumulation',
      text: 'exp(k) = (1 - delta)*exp(k(-1)) + exp(inv)',
      latex: 'K_t = (1-\\delta)K_{t-1} + I_t',
    },
    { label: 'Resource constraint', text: 'exp(y) = exp(c) + exp(inv)', latex: 'Y_t = C_t + I_t' },
    {
      label: 'Productivity',
      text: 'a = rho*a(-1) + e_a',
      latex: 'a_t = \\rho a_{t-1} + \\varepsilon^a_t',
    },
  ],
  steadyState: {
    n: 'log(nbar)',
    k: 'log(nbar*(alpha/rk)^(1/(1 - alpha)))',
    a: 0,
    y: 'alpha*k + (1 - alpha)*n',
    inv: 'log(delta) + k',
    c: 'log(exp(y) - exp(inv))',
    w: 'log(1 - alpha) + y - n',
    r: 'log(alpha) + y - k',
  },
  calibrationSource:
    "Quarterly US calibration in the tradition of Hansen (1985), Cooley and Prescott (1995) and King and Rebelo (1999): Hansen's capital share 0.36, discount factor 0.99 and depreciation 0.025; the leisure weight is set so that hours are a third of time.",
  keyVariables: ['y', 'c', 'inv', 'n', 'w', 'a'],
  targets: [
    {
      variable: 'y',
      statistic: 'std',
      value: 0.0181,
      filter: 'hp',
      source:
        'King and Rebelo (1999), Table 1: US quarterly data 1947-1996, HP-filtered, std. dev. of output 1.81%',
    },
    {
      variable: 'c',
      statistic: 'relstd',
      other: 'y',
      value: 0.74,
      filter: 'hp',
      source: 'King and Rebelo (1999), Table 1: consumption relative to output',
    },
    {
      variable: 'inv',
      statistic: 'relstd',
      other: 'y',
      value: 2.93,
      filter: 'hp',
      source: 'King and Rebelo (1999), Table 1: investment relative to output',
    },
    {
      variable: 'n',
      statistic: 'relstd',
      other: 'y',
      value: 0.99,
      filter: 'hp',
      source: 'King and Rebelo (1999), Table 1: hours relative to output',
    },
    {
      variable: 'y',
      statistic: 'autocorr',
      value: 0.84,
      filter: 'hp',
      source: 'King and Rebelo (1999), Table 1: first-order autocorrelation of output',
    },
  ],
  estimated: [
    { name: 'sigma_a', lower: 0.001, upper: 0.05 },
    { name: 'rho', lower: 0.5, upper: 0.999 },
  ],
};
