import type { ModelDescriptionInput } from '../../../../common/teams/model';

/** The Diamond-Mortensen-Pissarides search and matching model, quarterly, with Nash wages. */
export const labor: ModelDescriptionInput = {
  type: 'Labor',
  title: 'Search and matching model of unemployment (Diamond-Mortensen-Pissarides)',
  summary:
    'Firms post costly vacancies, a matching function brings vacancies and unemployed workers together, wages are set by Nash bargaining, and labour productivity follows an AR(1) process. Tightness, vacancies and unemployment are in logs. The calibration follows Shimer (2005), whose point is that this model makes unemployment and vacancies far less volatile than in the data.',
  framework: `**Agents.** Risk-neutral workers, employed or unemployed (an unemployed worker enjoys the flow value $z$); risk-neutral firms with one job each, which pay a flow cost $c$ to keep a vacancy open and produce $p_t$ when matched.

**Markets.** The labour market has search frictions: matches are $m(u,v) = \\mu u^{\\eta} v^{1-\\eta}$, where $\\theta = v/u$ is market tightness. Free entry drives the value of a vacancy to zero. Jobs end at the Poisson rate $s$ and unemployed workers find jobs at the rate $\\lambda(\\theta) = \\mu\\theta^{1-\\eta}$ (Shimer's continuous-time flows); over a quarter these give the transition probabilities $f_t = \\frac{\\lambda_t}{s+\\lambda_t}(1 - e^{-(s+\\lambda_t)})$ into and $\\sigma_t = \\frac{s}{s+\\lambda_t}(1 - e^{-(s+\\lambda_t)})$ out of employment, and a vacancy is filled with probability $q_t = f_t/\\theta_t$. The wage splits the match surplus by Nash bargaining with worker share $\\beta_w$.

**Assumptions.** One period is a quarter; the unemployed at the end of the previous quarter search in the current one; productivity $p_t = \\log$ of labour productivity follows an AR(1) process; there is no capital and no aggregate risk aversion.

**Mechanisms.** Higher productivity raises the value of a filled job, so firms post more vacancies, tightness and the job-finding probability rise and unemployment falls gradually (the Beveridge curve). With Nash bargaining the wage absorbs much of a productivity change, which keeps the response of vacancies small: the model's standard deviation of tightness is a small multiple of that of productivity, against about 19 in US data (Shimer 2005). A value of non-work $z$ close to productivity (Hagedorn and Manovskii 2008) raises the volatility.`,
  references: [
    {
      citation:
        'Mortensen, D. T. and Pissarides, C. A. (1994). Job Creation and Job Destruction in the Theory of Unemployment. Review of Economic Studies, 61(3), 397-415.',
    },
    { citation: 'Pissarides, C. A. (2000). Equilibrium Unemployment Theory (2nd ed.). MIT Press.' },
    {
      citation:
        'Shimer, R. (2005). The Cyclical Behavior of Equilibrium Unemployment and Vacancies. American Economic Review, 95(1), 25-49.',
    },
    {
      citation:
        'Hagedorn, M. and Manovskii, I. (2008). The Cyclical Behavior of Equilibrium Unemployment and Vacancies Revisited. American Economic Review, 98(4), 1692-1706.',
    },
  ],
  endogenous: [
    { name: 'lth', label: 'labour market tightness v/u (log)', latex: '\\log\\theta' },
    { name: 'lu', label: 'unemployment rate (log)', latex: '\\log u' },
    { name: 'lv', label: 'vacancies (log)', latex: '\\log v' },
    { name: 'jfr', label: 'job-finding rate (Poisson, quarterly)', latex: '\\lambda' },
    { name: 'f', label: 'job-finding probability (quarterly)', latex: 'f' },
    { name: 'sep', label: 'separation probability (quarterly)', latex: '\\sigma' },
    { name: 'q', label: 'vacancy-filling probability', latex: 'q' },
    { name: 'w', label: 'wage', latex: 'w' },
    { name: 'p', label: 'labour productivity (log)', latex: 'p' },
  ],
  exogenous: [
    { name: 'e_p', label: 'productivity innovation', latex: '\\varepsilon^p', stderr: 'sigma_p' },
  ],
  parameters: [
    {
      name: 'r',
      label: 'discount rate (quarterly)',
      latex: 'r',
      value: 0.012,
      source: 'Shimer (2005), Table 2',
    },
    {
      name: 's',
      label: 'separation rate (quarterly, Poisson)',
      latex: 's',
      value: 0.1,
      source: 'Shimer (2005), Table 2 (separation rate 0.10 per quarter, a Poisson rate)',
    },
    {
      name: 'eta',
      label: 'elasticity of matching with respect to unemployment',
      latex: '\\eta',
      value: 0.72,
      source: 'Shimer (2005), Table 2',
    },
    {
      name: 'beta_w',
      label: 'worker bargaining power',
      latex: '\\beta_w',
      value: 0.72,
      source: 'Shimer (2005), Table 2 (Hosios condition)',
    },
    {
      name: 'z',
      label: 'value of non-work',
      latex: 'z',
      value: 0.4,
      source: 'Shimer (2005), Table 2',
    },
    {
      name: 'frate',
      label: 'job-finding rate at steady state (quarterly, continuous time)',
      latex: '\\bar{f}',
      value: 1.355,
      source: 'Shimer (2005), Table 2',
    },
    {
      name: 'rho_p',
      label: 'persistence of productivity',
      latex: '\\rho_p',
      value: 0.878,
      source: 'Shimer (2005), Table 1: quarterly autocorrelation of labour productivity',
    },
    {
      name: 'sigma_p',
      label: 'std. dev. of the productivity innovation',
      latex: '\\sigma_p',
      value: 0.0096,
      source:
        'Set so that the std. dev. of productivity is 0.02 (Shimer 2005, Table 1): 0.02*sqrt(1-0.878^2)',
    },
    {
      name: 'beta',
      label: 'discount factor',
      latex: '\\beta',
      expr: '1/(1 + r)',
      source: 'Implied by r',
    },
    {
      name: 'mu',
      label: 'matching efficiency (job-finding rate at tightness 1)',
      latex: '\\mu',
      expr: 'frate',
      source: 'The job-finding rate at tightness normalised to 1 (as Shimer 2005)',
    },
    {
      name: 'f_ss',
      label: 'steady-state quarterly job-finding probability',
      latex: 'f^*',
      expr: 'mu/(s + mu)*(1 - exp(-(s + mu)))',
      source:
        "Probability that a worker unemployed at the start of a quarter is employed at its end, under Shimer's (2005) rates",
    },
    {
      name: 'sep_ss',
      label: 'steady-state quarterly separation probability',
      latex: '\\sigma^*',
      expr: 's/(s + mu)*(1 - exp(-(s + mu)))',
      source:
        "Probability that a worker employed at the start of a quarter is unemployed at its end, under Shimer's (2005) rates",
    },
    {
      name: 'cv',
      label: 'vacancy cost',
      latex: 'c',
      expr: 'beta*(1 - beta_w)*(1 - z)/((1 - beta*(1 - sep_ss))/f_ss + beta*beta_w)',
      source: 'Calibrated so that steady-state tightness is 1 (as Shimer 2005)',
    },
  ],
  equations: [
    {
      label: 'Job-finding rate',
      text: 'jfr = mu*exp((1 - eta)*lth)',
      latex: '\\lambda_t = \\mu\\theta_t^{1-\\eta}',
    },
    {
      label: 'Job-finding probability',
      text: 'f = jfr/(s + jfr)*(1 - exp(-(s + jfr)))',
      latex: 'f_t = \\frac{\\lambda_t}{s + \\lambda_t}\\left(1 - e^{-(s + \\lambda_t)}\\right)',
    },
    {
      label: 'Separation probability',
      text: 'sep = s/(s + jfr)*(1 - exp(-(s + jfr)))',
      latex: '\\sigma_t = \\frac{s}{s + \\lambda_t}\\left(1 - e^{-(s + \\lambda_t)}\\right)',
    },
    {
      label: 'Vacancy-filling probability',
      text: 'q = f*exp(-lth)',
      latex: 'q_t = f_t/\\theta_t',
    },
    { label: 'Tightness', text: 'lth = lv - lu(-1)', latex: '\\theta_t = \\frac{v_t}{u_{t-1}}' },
    {
      label: 'Unemployment dynamics',
      text: 'exp(lu) = exp(lu(-1)) + sep*(1 - exp(lu(-1))) - f*exp(lu(-1))',
      latex: 'u_t = u_{t-1} + \\sigma_t(1 - u_{t-1}) - f_t u_{t-1}',
    },
    {
      label: 'Nash wage',
      text: 'w = beta_w*(exp(p) + cv*exp(lth)) + (1 - beta_w)*z',
      latex: 'w_t = \\beta_w\\left(e^{p_t} + c\\,\\theta_t\\right) + (1-\\beta_w) z',
    },
    {
      label: 'Job creation (free entry)',
      text: 'cv/q = beta*(exp(p(+1)) - w(+1) + (1 - sep(+1))*cv/q(+1))',
      latex:
        '\\frac{c}{q_t} = \\beta E_t\\left[e^{p_{t+1}} - w_{t+1} + (1-\\sigma_{t+1})\\frac{c}{q_{t+1}}\\right]',
    },
    {
      label: 'Productivity',
      text: 'p = rho_p*p(-1) + e_p',
      latex: 'p_t = \\rho_p p_{t-1} + \\varepsilon^p_t',
    },
  ],
  steadyState: {
    p: 0,
    lth: 0,
    jfr: 'mu',
    f: 'f_ss',
    sep: 'sep_ss',
    q: 'f_ss',
    lu: 'log(sep_ss/(sep_ss + f_ss))',
    lv: 'lth + lu',
    w: 'beta_w*(1 + cv) + (1 - beta_w)*z',
  },
  calibrationSource:
    "Shimer (2005), Table 2, in discrete quarterly time: the separation rate 0.10 and the job-finding rate 1.355 are both Poisson rates per quarter, turned into the quarterly transition probabilities of Shimer's continuous-time worker flows (so steady-state unemployment is s/(s + f) = 6.9%, as in continuous time); tightness is normalised to 1 through the vacancy cost; productivity persistence and volatility match Shimer (2005), Table 1.",
  keyVariables: ['lu', 'lv', 'lth', 'w', 'p'],
  targets: [
    {
      variable: 'lth',
      statistic: 'relstd',
      other: 'p',
      value: 19.1,
      filter: 'hp',
      lambda: 100000,
      source:
        'Shimer (2005), Table 1: std. dev. of log v/u (0.382) over that of log productivity (0.020), quarterly 1951-2003, HP filter with smoothing 10^5',
    },
    {
      variable: 'lu',
      statistic: 'relstd',
      other: 'p',
      value: 9.5,
      filter: 'hp',
      lambda: 100000,
      source:
        'Shimer (2005), Table 1: std. dev. of log unemployment (0.190) over that of log productivity (0.020)',
    },
    {
      variable: 'p',
      statistic: 'std',
      value: 0.02,
      filter: 'hp',
      lambda: 100000,
      source: 'Shimer (2005), Table 1: std. dev. of log labour productivity',
    },
  ],
  estimated: [
    { name: 'z', lower: 0.1, upper: 0.98 },
    { name: 'sigma_p', lower: 0.001, upper: 0.05 },
  ],
};
