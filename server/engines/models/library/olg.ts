import type { ModelDescriptionInput } from '../../../../common/teams/model';

/** Diamond's (1965) overlapping-generations model with log utility and Cobb-Douglas production. */
export const olg: ModelDescriptionInput = {
  type: 'OLG',
  title: 'Overlapping-generations growth model (Diamond 1965)',
  summary:
    'Two-period-lived generations: the young work and save, the old consume the return on their savings. Capital per worker follows a first-order difference equation; the transition from a low capital stock to the steady state is solved under perfect foresight. One model period is a generation of 30 years.',
  framework: `**Agents.** Each generation lives two periods. The young supply one unit of labour, earn the wage $w_t$, consume $c^1_t$ and save $s_t$; the old consume $c^2_{t+1} = R_{t+1}s_t$. Preferences are $\\log c^1_t + \\beta \\log c^2_{t+1}$. Population grows at rate $n$ per generation. Competitive firms produce $Y_t = A_t K_t^{\\alpha} L_t^{1-\\alpha}$ with full depreciation over a generation.

**Markets.** Competitive labour and capital markets clear each period; the capital of period $t+1$ is the saving of the young of period $t$: $k_{t} = s_t/(1+n)$ per worker of the next generation.

**Assumptions.** No bequests, no government, no altruism; log utility makes saving a constant share $\\beta/(1+\\beta)$ of the wage. A productivity level $a_t = \\log A_t$ follows an AR(1) process across generations.

**Mechanisms.** Capital per worker converges monotonically to $k^* = \\left[\\frac{(1-\\alpha)\\beta}{(1+\\beta)(1+n)}\\right]^{1/(1-\\alpha)}$. Unlike the Ramsey model, the decentralised equilibrium can be dynamically inefficient: if the steady-state return $R^*$ is below the growth factor $1+n$, the economy over-accumulates capital and a transfer from young to old (pay-as-you-go pensions) would raise every generation's welfare.`,
  references: [
    {
      citation:
        'Diamond, P. A. (1965). National Debt in a Neoclassical Growth Model. American Economic Review, 55(5), 1126-1150.',
    },
    {
      citation:
        'Samuelson, P. A. (1958). An Exact Consumption-Loan Model of Interest with or without the Social Contrivance of Money. Journal of Political Economy, 66(6), 467-482.',
    },
    {
      citation:
        'de la Croix, D. and Michel, P. (2002). A Theory of Economic Growth: Dynamics and Policy in Overlapping Generations. Cambridge University Press.',
    },
    {
      citation:
        'Romer, D. (2019). Advanced Macroeconomics (5th ed.), chapter 2, part B. McGraw-Hill.',
    },
  ],
  endogenous: [
    { name: 'k', label: 'capital per worker installed for next period', latex: 'k' },
    { name: 'y', label: 'output per worker', latex: 'y' },
    { name: 'w', label: 'wage', latex: 'w' },
    { name: 'R', label: 'gross return on capital', latex: 'R' },
    { name: 's', label: 'saving of the young', latex: 's' },
    { name: 'c1', label: 'consumption of the young', latex: 'c^1' },
    { name: 'c2', label: 'consumption of the old', latex: 'c^2' },
    { name: 'a', label: 'productivity (log)', latex: 'a' },
  ],
  exogenous: [
    { name: 'e_a', label: 'productivity innovation', latex: '\\varepsilon^a', stderr: 'sigma_a' },
  ],
  parameters: [
    {
      name: 'alpha',
      label: 'capital share',
      latex: '\\alpha',
      value: 1 / 3,
      source: 'Capital share of about one third (Gollin 2002, Getting Income Shares Right, JPE)',
    },
    {
      name: 'beta_annual',
      label: 'annual discount factor',
      latex: '\\beta_a',
      value: 0.97,
      source: 'Illustrative annual discount factor (library choice)',
    },
    {
      name: 'n_annual',
      label: 'annual population growth',
      latex: 'n_a',
      value: 0.01,
      source: 'Illustrative: 1% a year, close to post-war US population growth (library choice)',
    },
    {
      name: 'years',
      label: 'years per generation',
      latex: 'T',
      value: 30,
      source: 'Common choice for two-period OLG models (de la Croix and Michel 2002)',
    },
    {
      name: 'rho',
      label: 'persistence of productivity across generations',
      latex: '\\rho',
      value: 0.5,
      source: 'Illustrative (library choice)',
    },
    {
      name: 'sigma_a',
      label: 'std. dev. of the productivity innovation',
      latex: '\\sigma_a',
      value: 0.05,
      source: 'Illustrative (library choice)',
    },
    {
      name: 'beta',
      label: 'discount factor per generation',
      latex: '\\beta',
      expr: 'beta_annual^years',
      source: 'Annual factor compounded over a generation',
    },
    {
      name: 'nn',
      label: 'population growth per generation',
      latex: 'n',
      expr: '(1 + n_annual)^years - 1',
      source: 'Annual rate compounded over a generation',
    },
  ],
  equations: [
    { label: 'Production', text: 'y = exp(a)*k(-1)^alpha', latex: 'y_t = A_t k_{t-1}^{\\alpha}' },
    { label: 'Wage', text: 'w = (1 - alpha)*y', latex: 'w_t = (1-\\alpha) y_t' },
    {
      label: 'Return on capital',
      text: 'R = alpha*y/k(-1)',
      latex: 'R_t = \\alpha \\frac{y_t}{k_{t-1}}',
    },
    {
      label: 'Saving of the young',
      text: 's = beta/(1 + beta)*w',
      latex: 's_t = \\frac{\\beta}{1+\\beta} w_t',
    },
    { label: 'Capital market', text: 'k = s/(1 + nn)', latex: 'k_t = \\frac{s_t}{1+n}' },
    { label: 'Budget of the young', text: 'c1 = w - s', latex: 'c^1_t = w_t - s_t' },
    {
      label: 'Consumption of the old',
      text: 'c2 = R*k(-1)*(1 + nn)',
      latex: 'c^2_t = R_t s_{t-1} = R_t (1+n) k_{t-1}',
    },
    {
      label: 'Productivity',
      text: 'a = rho*a(-1) + e_a',
      latex: 'a_t = \\rho a_{t-1} + \\varepsilon^a_t',
    },
  ],
  steadyState: {
    a: 0,
    k: '((1 - alpha)*beta/((1 + beta)*(1 + nn)))^(1/(1 - alpha))',
    y: 'k^alpha',
    w: '(1 - alpha)*y',
    R: 'alpha*y/k',
    s: 'beta/(1 + beta)*w',
    c1: 'w - s',
    c2: 'R*k*(1 + nn)',
  },
  calibrationSource:
    'Textbook calibration of the two-period model: capital share one third, 30-year generations, annual discount factor 0.97 and population growth 1% compounded over a generation; the shock process is illustrative.',
  keyVariables: ['k', 'y', 'w', 'R', 'c1', 'c2'],
  targets: [],
  estimated: [],
  scenario: {
    title: 'Transition from half the steady-state capital stock',
    description:
      'The economy starts with capital per worker at 50% of its steady-state value and converges under perfect foresight (no shocks).',
    changes: {},
    initialFactor: { k: 0.5 },
  },
};
