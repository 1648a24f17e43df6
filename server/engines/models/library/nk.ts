import type { ModelDescriptionInput } from '../../../../common/teams/model';

/**
 * The basic New Keynesian model (Galí 2015, chapter 3), log-linear, with the second edition's
 * calibration (p. 67) and its interest-rate rule, which responds to inflation and to output's
 * deviation from steady state, as in Dynare's own Gali_2015.mod (testdata/).
 */
export const nk: ModelDescriptionInput = {
  type: 'NK',
  title: 'Three-equation New Keynesian model (Galí 2015, chapter 3)',
  summary:
    'A dynamic IS curve, a New Keynesian Phillips curve and a Taylor rule that responds to inflation and to output, in the output gap, inflation and the nominal interest rate, driven by a monetary policy shock and a technology shock. Variables are log deviations from a zero-inflation steady state (rates are quarterly).',
  framework: `**Agents.** Households with utility $\\frac{C^{1-\\sigma}}{1-\\sigma} - \\frac{N^{1+\\varphi}}{1+\\varphi}$ consume a CES basket of differentiated goods (elasticity $\\epsilon$) and supply labour. Monopolistically competitive firms produce with $Y = A N^{1-\\alpha}$ and reset prices with probability $1-\\theta$ each quarter (Calvo 1983). A central bank sets the nominal interest rate by a Taylor-type rule that responds to inflation and to output's deviation from its steady state (Galí 2015, chapter 3, eq. (26)).

**Markets.** Goods are differentiated, so firms have pricing power; labour and bond markets are competitive. Output equals consumption.

**Assumptions.** The model is log-linearised around a zero-inflation steady state. The technology shock moves the natural level of output and the natural real rate; the monetary shock $v_t$ is an AR(1) deviation from the rule.

**Mechanisms.** Because prices are sticky, the real interest rate moves with the nominal rate: a monetary tightening raises it, lowers the output gap through the dynamic IS curve, and lowers inflation through the Phillips curve (slope $\\kappa$). Under the Taylor principle ($\\phi_\\pi > 1$) the equilibrium is determinate. A technology improvement raises natural output more than actual output when policy does not track the natural rate, so the gap and inflation fall.`,
  references: [
    {
      citation:
        'Galí, J. (2015). Monetary Policy, Inflation, and the Business Cycle (2nd ed.), chapter 3. Princeton University Press.',
    },
    {
      citation:
        'Calvo, G. A. (1983). Staggered Prices in a Utility-Maximizing Framework. Journal of Monetary Economics, 12(3), 383-398.',
    },
    {
      citation:
        'Taylor, J. B. (1993). Discretion versus Policy Rules in Practice. Carnegie-Rochester Conference Series on Public Policy, 39, 195-214.',
    },
    {
      citation:
        'Clarida, R., Galí, J. and Gertler, M. (1999). The Science of Monetary Policy: A New Keynesian Perspective. Journal of Economic Literature, 37(4), 1661-1707.',
    },
  ],
  endogenous: [
    { name: 'x', label: 'output gap', latex: '\\tilde{y}' },
    { name: 'pi', label: 'inflation (quarterly)', latex: '\\pi' },
    { name: 'i', label: 'nominal interest rate (quarterly)', latex: 'i' },
    { name: 'r', label: 'real interest rate (quarterly)', latex: 'r' },
    { name: 'rn', label: 'natural real interest rate', latex: 'r^n' },
    { name: 'yn', label: 'natural output', latex: 'y^n' },
    { name: 'y', label: 'output (deviation from steady state)', latex: 'y' },
    { name: 'v', label: 'monetary policy shock', latex: 'v' },
    { name: 'a', label: 'technology', latex: 'a' },
  ],
  exogenous: [
    {
      name: 'e_v',
      label: 'monetary policy innovation',
      latex: '\\varepsilon^v',
      stderr: 'sigma_v',
    },
    { name: 'e_a', label: 'technology innovation', latex: '\\varepsilon^a', stderr: 'sigma_a' },
  ],
  parameters: [
    {
      name: 'beta',
      label: 'discount factor',
      latex: '\\beta',
      value: 0.99,
      source: 'Galí (2015), chapter 3, p. 67',
    },
    {
      name: 'sigma',
      label: 'inverse elasticity of intertemporal substitution',
      latex: '\\sigma',
      value: 1,
      source: 'Galí (2015), chapter 3, p. 67 (log utility)',
    },
    {
      name: 'phi',
      label: 'inverse Frisch elasticity',
      latex: '\\varphi',
      value: 5,
      source: 'Galí (2015), chapter 3, p. 67 (a Frisch elasticity of 0.2)',
    },
    {
      name: 'alpha',
      label: 'one minus the labour share',
      latex: '\\alpha',
      value: 1 / 4,
      source: 'Galí (2015), chapter 3, p. 67',
    },
    {
      name: 'epsilon',
      label: 'elasticity of substitution between goods',
      latex: '\\epsilon',
      value: 9,
      source: 'Galí (2015), chapter 3, p. 67 (a steady-state markup of 12.5%)',
    },
    {
      name: 'theta',
      label: 'Calvo probability of keeping the price',
      latex: '\\theta',
      value: 3 / 4,
      source: 'Galí (2015), chapter 3, p. 67 (an average price duration of one year)',
    },
    {
      name: 'phi_pi',
      label: 'Taylor-rule response to inflation',
      latex: '\\phi_\\pi',
      value: 1.5,
      source: 'Galí (2015), chapter 3, p. 67; Taylor (1993)',
    },
    {
      name: 'phi_y',
      label: "Taylor-rule response to output's deviation from steady state",
      latex: '\\phi_y',
      value: 0.125,
      source: 'Galí (2015), chapter 3, p. 67 (0.5/4, Taylor 1993 in quarterly rates)',
    },
    {
      name: 'rho_v',
      label: 'persistence of the monetary shock',
      latex: '\\rho_v',
      value: 0.5,
      source: 'Galí (2015), chapter 3, p. 67',
    },
    {
      name: 'rho_a',
      label: 'persistence of technology',
      latex: '\\rho_a',
      value: 0.9,
      source: 'Galí (2015), chapter 3, p. 67',
    },
    {
      name: 'sigma_v',
      label: 'std. dev. of the monetary innovation',
      latex: '\\sigma_v',
      value: 0.0025,
      source:
        "A 25 basis point innovation (1 percentage point annualised), the shock of Galí (2015), chapter 3, and of Dynare's Gali_2015.mod",
    },
    {
      name: 'sigma_a',
      label: 'std. dev. of the technology innovation',
      latex: '\\sigma_a',
      value: 0.01,
      source: 'Illustrative: a 1% innovation (library choice)',
    },
    {
      name: 'Theta',
      label: 'decreasing-returns factor',
      latex: '\\Theta',
      expr: '(1 - alpha)/(1 - alpha + alpha*epsilon)',
      source: 'Galí (2015), chapter 3, p. 60',
    },
    {
      name: 'lambda',
      label: 'inflation sensitivity to marginal cost',
      latex: '\\lambda',
      expr: '(1 - theta)*(1 - beta*theta)/theta*Theta',
      source: 'Galí (2015), chapter 3, p. 61',
    },
    {
      name: 'kappa',
      label: 'slope of the Phillips curve',
      latex: '\\kappa',
      expr: 'lambda*(sigma + (phi + alpha)/(1 - alpha))',
      source: 'Galí (2015), chapter 3, p. 63',
    },
    {
      name: 'psi_ya',
      label: 'natural output response to technology',
      latex: '\\psi_{ya}',
      expr: '(1 + phi)/(sigma*(1 - alpha) + phi + alpha)',
      source: 'Galí (2015), chapter 3, p. 62',
    },
  ],
  equations: [
    {
      label: 'Dynamic IS curve',
      text: 'x = x(+1) - 1/sigma*(i - pi(+1) - rn)',
      latex:
        '\\tilde{y}_t = E_t\\tilde{y}_{t+1} - \\frac{1}{\\sigma}\\left(i_t - E_t\\pi_{t+1} - r^n_t\\right)',
    },
    {
      label: 'New Keynesian Phillips curve',
      text: 'pi = beta*pi(+1) + kappa*x',
      latex: '\\pi_t = \\beta E_t\\pi_{t+1} + \\kappa \\tilde{y}_t',
    },
    {
      label: 'Taylor rule',
      text: 'i = phi_pi*pi + phi_y*y + v',
      latex: 'i_t = \\phi_\\pi \\pi_t + \\phi_y \\hat{y}_t + v_t',
    },
    { label: 'Real interest rate', text: 'r = i - pi(+1)', latex: 'r_t = i_t - E_t\\pi_{t+1}' },
    {
      label: 'Natural real rate',
      text: 'rn = -sigma*psi_ya*(1 - rho_a)*a',
      latex: 'r^n_t = -\\sigma\\psi_{ya}(1-\\rho_a) a_t',
    },
    { label: 'Natural output', text: 'yn = psi_ya*a', latex: 'y^n_t = \\psi_{ya} a_t' },
    { label: 'Output', text: 'y = x + yn', latex: 'y_t = \\tilde{y}_t + y^n_t' },
    {
      label: 'Monetary policy shock',
      text: 'v = rho_v*v(-1) + e_v',
      latex: 'v_t = \\rho_v v_{t-1} + \\varepsilon^v_t',
    },
    {
      label: 'Technology',
      text: 'a = rho_a*a(-1) + e_a',
      latex: 'a_t = \\rho_a a_{t-1} + \\varepsilon^a_t',
    },
  ],
  steadyState: {},
  calibrationSource:
    "Galí (2015), chapter 3, p. 67: the second edition's baseline quarterly calibration of the basic New Keynesian model (the values of Dynare's Gali_2015.mod).",
  keyVariables: ['x', 'pi', 'i', 'r', 'y'],
  targets: [],
  estimated: [],
};
