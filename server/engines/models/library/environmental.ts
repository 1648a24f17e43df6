import type { ModelDescriptionInput } from '../../../../common/teams/model';

/** A neoclassical growth model with a pollution (carbon) stock, damages, abatement and a tax. */
export const environmental: ModelDescriptionInput = {
  type: 'Environmental',
  title: 'Growth model with a pollution stock, damages and an emissions tax',
  summary:
    'A Ramsey growth model in which production emits pollution, the pollution stock lowers output through a damage function, and firms abate emissions up to the point where the marginal abatement cost equals an emissions tax. The scenario introduces a tax close to the marginal damage of emissions and traces the transition under perfect foresight. One period is a year.',
  framework: `**Agents.** A representative household with log utility saves in capital; competitive firms produce $Q_t = e^{a_t - \\gamma S_{t-1}} K_{t-1}^{\\alpha}$, where $S$ is the pollution stock, choose an abatement share $\\mu_t$ at cost $\\theta_1\\mu_t^{\\theta_2}Q_t$, and pay the tax $\\tau$ on emissions $E_t = \\sigma(1-\\mu_t)Q_t$. A government levies the tax and returns the revenue lump sum.

**Markets.** Competitive goods and capital markets. Pollution is an externality: without a tax, firms neither abate nor account for the damage their emissions cause to future output.

**Assumptions.** The stock accumulates as $S_t = (1-\\delta_S)S_{t-1} + E_t$; damages take the exponential form of Golosov, Hassler, Krusell and Tsyvinski (2014); the abatement cost follows DICE (Nordhaus 2017); productivity $a_t$ is an AR(1) process. Welfare $W_t = \\log C_t + \\beta W_{t+1}$ is tracked to compare policies.

**Mechanisms.** Firms abate until $\\theta_1\\theta_2\\mu^{\\theta_2-1} = \\tau\\sigma$, so a tax buys abatement at rising marginal cost. The tax lowers the return to capital (it is paid on the emissions capital generates), but the lower pollution stock raises output through smaller damages; in the long run the second effect can dominate. When the tax is close to the present value of marginal damages, $\\tau \\approx \\frac{\\gamma Y}{1 - \\beta(1-\\delta_S)}$ (the GHKT formula with log utility), it corrects the externality.`,
  references: [
    {
      citation:
        'Nordhaus, W. D. (2017). Revisiting the Social Cost of Carbon. Proceedings of the National Academy of Sciences, 114(7), 1518-1523.',
    },
    {
      citation:
        'Golosov, M., Hassler, J., Krusell, P. and Tsyvinski, A. (2014). Optimal Taxes on Fossil Fuel in General Equilibrium. Econometrica, 82(1), 41-88.',
    },
    {
      citation:
        'Brock, W. A. and Taylor, M. S. (2005). Economic Growth and the Environment: A Review of Theory and Empirics. In Handbook of Economic Growth, vol. 1B, 1749-1821.',
    },
    {
      citation:
        'Heutel, G. (2012). How Should Environmental Policy Respond to Business Cycles? Optimal Policy under Persistent Productivity Shocks. Review of Economic Dynamics, 15(2), 244-264.',
    },
  ],
  endogenous: [
    { name: 'Q', label: 'output after damages, before abatement', latex: 'Q' },
    { name: 'y', label: 'net output', latex: 'Y' },
    { name: 'c', label: 'consumption', latex: 'C' },
    { name: 'inv', label: 'investment', latex: 'I' },
    { name: 'k', label: 'capital stock, end of period', latex: 'K' },
    { name: 'mu', label: 'abatement share', latex: '\\mu' },
    { name: 'em', label: 'emissions', latex: 'E' },
    { name: 'S', label: 'pollution stock', latex: 'S' },
    { name: 'a', label: 'productivity (log)', latex: 'a' },
    { name: 'W', label: 'welfare (discounted utility)', latex: 'W' },
  ],
  exogenous: [
    { name: 'e_a', label: 'productivity innovation', latex: '\\varepsilon^a', stderr: 'sigma_a' },
  ],
  parameters: [
    {
      name: 'alpha',
      label: 'capital share',
      latex: '\\alpha',
      value: 0.3,
      source: 'DICE-2016R (Nordhaus 2017): capital elasticity 0.3',
    },
    {
      name: 'beta',
      label: 'discount factor (annual)',
      latex: '\\beta',
      value: 0.985,
      source: 'DICE-2016R (Nordhaus 2017): pure rate of time preference 1.5% a year',
    },
    {
      name: 'delta',
      label: 'depreciation (annual)',
      latex: '\\delta',
      value: 0.1,
      source: 'DICE-2016R (Nordhaus 2017): 10% a year',
    },
    {
      name: 'theta1',
      label: 'abatement cost level',
      latex: '\\theta_1',
      value: 0.07,
      source:
        'Illustrative: abating all emissions costs 7% of output (library choice, in the range of DICE backstop costs)',
    },
    {
      name: 'theta2',
      label: 'abatement cost exponent',
      latex: '\\theta_2',
      value: 2.6,
      source: 'DICE-2016R (Nordhaus 2017)',
    },
    {
      name: 'sig',
      label: 'emissions per unit of output',
      latex: '\\sigma',
      value: 1,
      source:
        'Normalisation: pollution is measured in units of unabated emissions per unit of output',
    },
    {
      name: 'deltaS',
      label: 'decay of the pollution stock (annual)',
      latex: '\\delta_S',
      value: 0.0228,
      source: 'Golosov et al. (2014): decay rate of the non-permanent part of atmospheric carbon',
    },
    {
      name: 'gam',
      label: 'damage parameter',
      latex: '\\gamma',
      value: 0.00045,
      source:
        'Illustrative: damages of about 3% of output at the no-tax steady state (library choice, in the range of DICE damages)',
    },
    {
      name: 'tau',
      label: 'emissions tax (output units per unit of emissions)',
      latex: '\\tau',
      value: 0,
      source: 'Baseline without policy',
    },
    {
      name: 'rho',
      label: 'persistence of productivity (annual)',
      latex: '\\rho',
      value: 0.9,
      source: 'Illustrative annual persistence (library choice)',
    },
    {
      name: 'sigma_a',
      label: 'std. dev. of the productivity innovation',
      latex: '\\sigma_a',
      value: 0.01,
      source: 'Illustrative (library choice)',
    },
  ],
  equations: [
    {
      label: 'Output after damages',
      text: 'Q = exp(a - gam*S(-1))*k(-1)^alpha',
      latex: 'Q_t = e^{a_t - \\gamma S_{t-1}} K_{t-1}^{\\alpha}',
    },
    {
      label: 'Net output',
      text: 'y = (1 - theta1*mu^theta2)*Q',
      latex: 'Y_t = \\left(1 - \\theta_1\\mu_t^{\\theta_2}\\right) Q_t',
    },
    {
      label: 'Abatement (marginal cost = tax)',
      text: 'mu = (tau*sig/(theta1*theta2))^(1/(theta2 - 1))',
      latex: '\\theta_1\\theta_2\\mu_t^{\\theta_2 - 1} = \\tau\\sigma',
    },
    { label: 'Emissions', text: 'em = sig*(1 - mu)*Q', latex: 'E_t = \\sigma(1-\\mu_t) Q_t' },
    {
      label: 'Pollution stock',
      text: 'S = (1 - deltaS)*S(-1) + em',
      latex: 'S_t = (1-\\delta_S) S_{t-1} + E_t',
    },
    {
      label: 'Capital accumulation',
      text: 'k = (1 - delta)*k(-1) + inv',
      latex: 'K_t = (1-\\delta) K_{t-1} + I_t',
    },
    { label: 'Resource constraint', text: 'y = c + inv', latex: 'Y_t = C_t + I_t' },
    {
      label: 'Euler equation',
      text: '1/c = beta/c(+1)*(alpha*(1 - theta1*mu(+1)^theta2 - tau*sig*(1 - mu(+1)))*Q(+1)/k + 1 - delta)',
      latex:
        '\\frac{1}{C_t} = \\beta E_t\\left[\\frac{1}{C_{t+1}}\\left(\\alpha\\left(1 - \\theta_1\\mu_{t+1}^{\\theta_2} - \\tau\\sigma(1-\\mu_{t+1})\\right)\\frac{Q_{t+1}}{K_t} + 1 - \\delta\\right)\\right]',
    },
    {
      label: 'Productivity',
      text: 'a = rho*a(-1) + e_a',
      latex: 'a_t = \\rho a_{t-1} + \\varepsilon^a_t',
    },
    {
      label: 'Welfare',
      text: 'W = log(c) + beta*W(+1)',
      latex: 'W_t = \\log C_t + \\beta E_t W_{t+1}',
    },
  ],
  steadyState: {
    a: 0,
    mu: '(tau*sig/(theta1*theta2))^(1/(theta2 - 1))',
    k: '(alpha*(1 - theta1*mu^theta2 - tau*sig*(1 - mu))/(1/beta - 1 + delta))^(1/(1 - alpha))',
    Q: 'k^alpha',
    y: '(1 - theta1*mu^theta2)*Q',
    inv: 'delta*k',
    c: 'y - inv',
    em: 'sig*(1 - mu)*Q',
    S: 'em/deltaS',
    W: 'log(c)/(1 - beta)',
  },
  calibrationSource:
    "Annual calibration: preferences, technology and abatement costs from DICE-2016R (Nordhaus 2017); pollution decay from Golosov et al. (2014); damage level, abatement cost level and shocks are an illustrative normalisation. Starting values ignore damages; Newton's method finds the steady state with them.",
  keyVariables: ['y', 'c', 'k', 'mu', 'em', 'S', 'W'],
  targets: [],
  estimated: [],
  scenario: {
    title: 'An emissions tax close to the marginal damage of emissions',
    description:
      'The tax rises permanently from 0 to 0.018 output units per unit of emissions, about the marginal damage gamma*Y/(1 - beta*(1 - deltaS)) at the no-tax steady state; the economy moves to the new steady state under perfect foresight.',
    changes: { tau: 0.018 },
    initialFactor: {},
  },
};
