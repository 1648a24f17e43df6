import type { ModelDescriptionInput } from '../../../../common/teams/model';

/** Lucas (1978) tree economy: consumption-based asset pricing, annual, Mehra-Prescott data. */
export const finance: ModelDescriptionInput = {
  type: 'Finance',
  title: 'Lucas asset-pricing model / consumption CAPM (Lucas 1978; Mehra and Prescott 1985)',
  summary:
    "An endowment economy in which consumption equals the dividend of a single tree; log consumption growth follows an AR(1) process. The price-dividend ratio, the equity return and the risk-free rate follow from the consumer's Euler equations. At first order (certainty equivalence) the equity premium is zero; the computed moments show the volatility of returns and the risk-free rate the model implies.",
  framework: `**Agents.** A representative investor with CRRA utility $\\frac{C^{1-\\gamma}}{1-\\gamma}$ and discount factor $\\beta$ owns a tree whose dividend is aggregate consumption, $D_t = C_t$, with $g_t = \\log(C_t/C_{t-1})$ following $g_t = (1-\\rho)\\mu + \\rho g_{t-1} + \\varepsilon_t$.

**Markets.** Complete, frictionless asset markets: the tree (equity) and a one-period risk-free bond, priced by the stochastic discount factor $M_{t+1} = \\beta e^{-\\gamma g_{t+1}}$. Prices adjust so that the investor holds the tree and zero bonds.

**Assumptions.** Exchange economy (no production, no investment); rational expectations; the price-dividend ratio $pd_t = P_t/D_t$ satisfies $pd_t = E_t\\left[\\beta e^{(1-\\gamma)g_{t+1}}(1 + pd_{t+1})\\right]$ and the risk-free rate $1/R^f_t = E_t M_{t+1}$.

**Mechanisms.** Asset prices reflect the covariance of returns with marginal utility. With consumption growth as smooth as in the data, plausible risk aversion implies a small equity premium and a high risk-free rate: the equity-premium and risk-free-rate puzzles of Mehra and Prescott (1985). A first-order solution is certainty equivalent, so its mean premium is exactly zero; the second moments of returns it implies are still informative, and the steady-state risk-free rate $e^{\\gamma\\mu}/\\beta - 1$ shows the risk-free-rate puzzle.`,
  references: [
    {
      citation:
        'Lucas, R. E. (1978). Asset Prices in an Exchange Economy. Econometrica, 46(6), 1429-1445.',
    },
    {
      citation:
        'Mehra, R. and Prescott, E. C. (1985). The Equity Premium: A Puzzle. Journal of Monetary Economics, 15(2), 145-161.',
    },
    {
      citation: 'Cochrane, J. H. (2005). Asset Pricing (revised ed.). Princeton University Press.',
    },
    {
      citation:
        'Weil, P. (1989). The Equity Premium Puzzle and the Risk-Free Rate Puzzle. Journal of Monetary Economics, 24(3), 401-421.',
    },
  ],
  endogenous: [
    { name: 'g', label: 'consumption (dividend) growth, log', latex: 'g' },
    { name: 'pd', label: 'price-dividend ratio', latex: 'pd' },
    { name: 'Re', label: 'gross equity return', latex: 'R^e' },
    { name: 'Rf', label: 'gross risk-free rate', latex: 'R^f' },
    { name: 'xr', label: 'realised excess return', latex: 'R^e - R^f' },
  ],
  exogenous: [
    {
      name: 'e_g',
      label: 'consumption growth innovation',
      latex: '\\varepsilon',
      stderr: 'sigma_g',
    },
  ],
  parameters: [
    {
      name: 'beta',
      label: 'discount factor (annual)',
      latex: '\\beta',
      value: 0.99,
      source: 'Within the range Mehra and Prescott (1985) allow (0 < beta < 1); library choice',
    },
    {
      name: 'gamma',
      label: 'relative risk aversion',
      latex: '\\gamma',
      value: 2,
      source:
        'Within the range Mehra and Prescott (1985) consider plausible (up to 10); library choice',
    },
    {
      name: 'mu',
      label: 'mean consumption growth',
      latex: '\\mu',
      value: 0.0183,
      source:
        'Mehra and Prescott (1985), Table 1: US 1889-1978, mean growth of real per-capita consumption 1.83%',
    },
    {
      name: 'rho',
      label: 'autocorrelation of consumption growth',
      latex: '\\rho',
      value: -0.14,
      source: 'Mehra and Prescott (1985), Table 1: first-order autocorrelation -0.14',
    },
    {
      name: 'sigma_g',
      label: 'std. dev. of the growth innovation',
      latex: '\\sigma_\\varepsilon',
      value: 0.03535,
      source:
        'Set so that growth has std. dev. 3.57% (Mehra and Prescott 1985, Table 1): 0.0357*sqrt(1-0.14^2)',
    },
  ],
  equations: [
    {
      label: 'Consumption growth',
      text: 'g = (1 - rho)*mu + rho*g(-1) + e_g',
      latex: 'g_t = (1-\\rho)\\mu + \\rho g_{t-1} + \\varepsilon_t',
    },
    {
      label: 'Euler equation for the tree',
      text: 'pd = beta*exp((1 - gamma)*g(+1))*(1 + pd(+1))',
      latex: 'pd_t = E_t\\left[\\beta e^{(1-\\gamma) g_{t+1}}\\left(1 + pd_{t+1}\\right)\\right]',
    },
    {
      label: 'Equity return',
      text: 'Re = exp(g)*(1 + pd)/pd(-1)',
      latex: 'R^e_t = e^{g_t}\\frac{1 + pd_t}{pd_{t-1}}',
    },
    {
      label: 'Risk-free rate',
      text: '1/Rf = beta*exp(-gamma*g(+1))',
      latex: '\\frac{1}{R^f_t} = E_t\\left[\\beta e^{-\\gamma g_{t+1}}\\right]',
    },
    { label: 'Excess return', text: 'xr = Re - Rf(-1)', latex: 'R^e_t - R^f_{t-1}' },
  ],
  steadyState: {
    g: 'mu',
    pd: 'beta*exp((1 - gamma)*mu)/(1 - beta*exp((1 - gamma)*mu))',
    Re: 'exp(mu)*(1 + pd)/pd',
    Rf: 'exp(gamma*mu)/beta',
    xr: 'Re - Rf',
  },
  calibrationSource:
    'Consumption-growth process from Mehra and Prescott (1985), Table 1 (US annual data 1889-1978); preference parameters within the ranges they consider.',
  keyVariables: ['g', 'pd', 'Re', 'Rf', 'xr'],
  targets: [
    {
      variable: 'g',
      statistic: 'mean',
      value: 0.0183,
      source: 'Mehra and Prescott (1985), Table 1: mean consumption growth',
    },
    {
      variable: 'g',
      statistic: 'std',
      value: 0.0357,
      source: 'Mehra and Prescott (1985), Table 1: std. dev. of consumption growth',
    },
    {
      variable: 'Rf',
      statistic: 'mean',
      value: 1.008,
      source:
        'Mehra and Prescott (1985), Table 1: mean real return on a relatively riskless security 0.80%',
    },
    {
      variable: 'Re',
      statistic: 'std',
      value: 0.1654,
      source:
        'Mehra and Prescott (1985), Table 1: std. dev. of the real return on the S&P 500, 16.54%',
    },
  ],
  estimated: [
    { name: 'gamma', lower: 0.5, upper: 10 },
    { name: 'beta', lower: 0.9, upper: 0.999 },
  ],
};
