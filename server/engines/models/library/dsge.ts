import type { ModelDescriptionInput } from '../../../../common/teams/model';

/** The small-scale New Keynesian DSGE model of An and Schorfheide (2007), log-linearised. */
export const dsge: ModelDescriptionInput = {
  type: 'DSGE',
  title: 'Small-scale New Keynesian DSGE model (An and Schorfheide 2007)',
  summary:
    'The workhorse model of Bayesian DSGE estimation: an Euler equation with government spending, a Phillips curve, an interest-rate rule with smoothing, technology-growth, government-spending and monetary shocks, and three observables (output growth, inflation and the interest rate, in annualised percent).',
  framework: `**Agents.** A representative household with CRRA utility (curvature $\\tau$) consumes and supplies labour; final-good firms aggregate intermediate goods produced by monopolistically competitive firms that face quadratic price-adjustment costs (Rotemberg); a government purchases a time-varying fraction of output; a central bank follows an interest-rate feedback rule with smoothing.

**Markets.** Goods markets with monopolistic competition and costly price changes; competitive labour and bond markets. Technology grows with a stochastic trend, so output is detrended by the level of technology.

**Assumptions.** Log-linearisation around the deterministic balanced-growth path; $\\hat g_t$ and $\\hat z_t$ (government-spending and technology-growth shocks) follow AR(1) processes; the monetary shock is i.i.d. The slope $\\kappa$ of the Phillips curve collects the price-adjustment cost, the demand elasticity and $\\tau$.

**Mechanisms.** Demand shocks ($\\hat g$) move output one for one at first and raise inflation through the Phillips curve; technology-growth shocks change the expected growth of consumption and so the real rate; monetary shocks raise the nominal and real rate and lower output and inflation. Interest-rate smoothing ($\\rho_R$) makes the policy rate persistent. The measurement equations map the model into the annualised data that the model is estimated on.`,
  references: [
    {
      citation:
        'An, S. and Schorfheide, F. (2007). Bayesian Analysis of DSGE Models. Econometric Reviews, 26(2-4), 113-172.',
    },
    {
      citation:
        'Herbst, E. P. and Schorfheide, F. (2015). Bayesian Estimation of DSGE Models. Princeton University Press (chapter 1 states the log-linear form used here).',
    },
    { citation: 'Woodford, M. (2003). Interest and Prices. Princeton University Press.' },
  ],
  endogenous: [
    { name: 'y', label: 'output, detrended (log deviation)', latex: '\\hat{y}' },
    { name: 'pi', label: 'inflation (log deviation, quarterly)', latex: '\\hat{\\pi}' },
    { name: 'R', label: 'nominal interest rate (log deviation, quarterly)', latex: '\\hat{R}' },
    { name: 'g', label: 'government spending shock', latex: '\\hat{g}' },
    { name: 'z', label: 'technology growth shock', latex: '\\hat{z}' },
    { name: 'YGR', label: 'output growth, quarter on quarter (percent)', latex: 'YGR' },
    { name: 'INFL', label: 'inflation, annualised (percent)', latex: 'INFL' },
    { name: 'INT', label: 'interest rate, annualised (percent)', latex: 'INT' },
  ],
  exogenous: [
    {
      name: 'e_R',
      label: 'monetary policy innovation',
      latex: '\\varepsilon^R',
      stderr: 'sigma_R',
    },
    {
      name: 'e_g',
      label: 'government spending innovation',
      latex: '\\varepsilon^g',
      stderr: 'sigma_g',
    },
    {
      name: 'e_z',
      label: 'technology growth innovation',
      latex: '\\varepsilon^z',
      stderr: 'sigma_z',
    },
  ],
  parameters: [
    {
      name: 'tau',
      label: 'inverse intertemporal elasticity of substitution',
      latex: '\\tau',
      value: 2,
      source:
        'An and Schorfheide (2007), Table 2: the values that generate their simulated data set (model M1), as commonly reproduced',
    },
    {
      name: 'kappa',
      label: 'slope of the Phillips curve',
      latex: '\\kappa',
      value: 0.15,
      source:
        'An and Schorfheide (2007), Table 2: the values that generate their simulated data set (model M1), as commonly reproduced',
    },
    {
      name: 'psi1',
      label: 'rule response to inflation',
      latex: '\\psi_1',
      value: 1.5,
      source:
        'An and Schorfheide (2007), Table 2: the values that generate their simulated data set (model M1), as commonly reproduced',
    },
    {
      name: 'psi2',
      label: 'rule response to the output gap',
      latex: '\\psi_2',
      value: 1,
      source:
        'An and Schorfheide (2007), Table 2: the values that generate their simulated data set (model M1), as commonly reproduced',
    },
    {
      name: 'rho_R',
      label: 'interest-rate smoothing',
      latex: '\\rho_R',
      value: 0.6,
      source:
        'An and Schorfheide (2007), Table 2: the values that generate their simulated data set (model M1), as commonly reproduced',
    },
    {
      name: 'rho_g',
      label: 'persistence of government spending',
      latex: '\\rho_g',
      value: 0.95,
      source:
        'An and Schorfheide (2007), Table 2: the values that generate their simulated data set (model M1), as commonly reproduced',
    },
    {
      name: 'rho_z',
      label: 'persistence of technology growth',
      latex: '\\rho_z',
      value: 0.65,
      source:
        'An and Schorfheide (2007), Table 2: the values that generate their simulated data set (model M1), as commonly reproduced',
    },
    {
      name: 'rA',
      label: 'annualised steady-state real rate (percent)',
      latex: 'r^{(A)}',
      value: 0.4,
      source:
        'An and Schorfheide (2007), Table 2: the values that generate their simulated data set (model M1), as commonly reproduced',
    },
    {
      name: 'piA',
      label: 'annualised steady-state inflation (percent)',
      latex: '\\pi^{(A)}',
      value: 4,
      source:
        'An and Schorfheide (2007), Table 2: the values that generate their simulated data set (model M1), as commonly reproduced',
    },
    {
      name: 'gammaQ',
      label: 'quarterly steady-state growth (percent)',
      latex: '\\gamma^{(Q)}',
      value: 0.5,
      source:
        'An and Schorfheide (2007), Table 2: the values that generate their simulated data set (model M1), as commonly reproduced',
    },
    {
      name: 'sigma_R',
      label: 'std. dev. of the monetary innovation',
      latex: '\\sigma_R',
      value: 0.002,
      source:
        'An and Schorfheide (2007), Table 2: the values that generate their simulated data set (model M1), as commonly reproduced (100 sigma = 0.20)',
    },
    {
      name: 'sigma_g',
      label: 'std. dev. of the government spending innovation',
      latex: '\\sigma_g',
      value: 0.008,
      source:
        'An and Schorfheide (2007), Table 2: the values that generate their simulated data set (model M1), as commonly reproduced (100 sigma = 0.80)',
    },
    {
      name: 'sigma_z',
      label: 'std. dev. of the technology growth innovation',
      latex: '\\sigma_z',
      value: 0.0045,
      source:
        'An and Schorfheide (2007), Table 2: the values that generate their simulated data set (model M1), as commonly reproduced (100 sigma = 0.45)',
    },
    {
      name: 'beta',
      label: 'discount factor',
      latex: '\\beta',
      expr: '1/(1 + rA/400)',
      source: 'Implied by the steady-state real rate',
    },
  ],
  equations: [
    {
      label: 'Euler equation',
      text: 'y = y(+1) + g - g(+1) - 1/tau*(R - pi(+1) - z(+1))',
      latex:
        '\\hat{y}_t = E_t\\hat{y}_{t+1} + \\hat{g}_t - E_t\\hat{g}_{t+1} - \\frac{1}{\\tau}\\left(\\hat{R}_t - E_t\\hat{\\pi}_{t+1} - E_t\\hat{z}_{t+1}\\right)',
    },
    {
      label: 'Phillips curve',
      text: 'pi = beta*pi(+1) + kappa*(y - g)',
      latex:
        '\\hat{\\pi}_t = \\beta E_t\\hat{\\pi}_{t+1} + \\kappa\\left(\\hat{y}_t - \\hat{g}_t\\right)',
    },
    {
      label: 'Monetary policy rule',
      text: 'R = rho_R*R(-1) + (1 - rho_R)*psi1*pi + (1 - rho_R)*psi2*(y - g) + e_R',
      latex:
        '\\hat{R}_t = \\rho_R \\hat{R}_{t-1} + (1-\\rho_R)\\psi_1\\hat{\\pi}_t + (1-\\rho_R)\\psi_2\\left(\\hat{y}_t - \\hat{g}_t\\right) + \\varepsilon^R_t',
    },
    {
      label: 'Government spending',
      text: 'g = rho_g*g(-1) + e_g',
      latex: '\\hat{g}_t = \\rho_g \\hat{g}_{t-1} + \\varepsilon^g_t',
    },
    {
      label: 'Technology growth',
      text: 'z = rho_z*z(-1) + e_z',
      latex: '\\hat{z}_t = \\rho_z \\hat{z}_{t-1} + \\varepsilon^z_t',
    },
    {
      label: 'Output growth (observed)',
      text: 'YGR = gammaQ + 100*(y - y(-1) + z)',
      latex: 'YGR_t = \\gamma^{(Q)} + 100\\left(\\hat{y}_t - \\hat{y}_{t-1} + \\hat{z}_t\\right)',
    },
    {
      label: 'Inflation (observed)',
      text: 'INFL = piA + 400*pi',
      latex: 'INFL_t = \\pi^{(A)} + 400\\hat{\\pi}_t',
    },
    {
      label: 'Interest rate (observed)',
      text: 'INT = piA + rA + 4*gammaQ + 400*R',
      latex: 'INT_t = \\pi^{(A)} + r^{(A)} + 4\\gamma^{(Q)} + 400\\hat{R}_t',
    },
  ],
  steadyState: { YGR: 'gammaQ', INFL: 'piA', INT: 'piA + rA + 4*gammaQ' },
  calibrationSource:
    'An and Schorfheide (2007), Table 2: the parameter values that generate the simulated data set of their study (model M1), as commonly reproduced (e.g. the BMR toolbox and Dynare teaching files: tau 2, kappa 0.15, psi1 1.5, psi2 1, rho_R 0.6, rho_g 0.95, rho_z 0.65, r(A) 0.4, pi(A) 4, gamma(Q) 0.5, 100 sigma_R 0.2, 100 sigma_g 0.8, 100 sigma_z 0.45); not checked against the printed table.',
  keyVariables: ['y', 'pi', 'R', 'YGR', 'INFL', 'INT'],
  targets: [],
  estimated: [],
};
