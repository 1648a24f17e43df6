import type { ModelDescriptionInput } from '../../../../common/teams/model';

/** Symmetric Cournot oligopoly with linear demand and persistent demand and cost shocks. */
export const io: ModelDescriptionInput = {
  type: 'IO',
  title: 'Cournot oligopoly with linear demand (symmetric firms)',
  summary:
    'N identical firms choose quantities; the market price clears a linear inverse demand. The static Nash equilibrium is solved each period; persistent demand and marginal-cost shocks make it move over time. A merger scenario compares equilibria with one firm fewer.',
  framework: `**Agents.** $N$ identical firms with constant marginal cost $c\\,e^{m_t}$ choose quantities simultaneously; consumers are summarised by the inverse demand $P_t = A e^{d_t} - bQ_t$.

**Markets.** One homogeneous-good market; firms take rivals' quantities as given (Cournot-Nash conjectures). Entry is fixed.

**Assumptions.** Symmetry, linear demand, constant marginal cost, no capacity constraints; the demand shifter $d_t$ and the cost shifter $m_t$ follow AR(1) processes. Each period's equilibrium is static: firms do not take future periods into account.

**Mechanisms.** Each firm's first-order condition $P_t - b q_t = c\\,e^{m_t}$ equates marginal revenue and marginal cost, so $q = \\frac{A - c}{b(N+1)}$ and $P = \\frac{A + Nc}{N+1}$ in the steady state. The Lerner index $\\frac{P - c}{P}$ falls as $N$ rises; with more firms price approaches marginal cost (the Cournot limit theorem). A merger that reduces $N$ raises price and profits per firm and lowers consumer surplus; cost pass-through to price is $\\frac{N}{N+1}$.`,
  references: [
    {
      citation:
        'Cournot, A. A. (1838). Recherches sur les principes mathématiques de la théorie des richesses. Paris: Hachette.',
    },
    { citation: 'Tirole, J. (1988). The Theory of Industrial Organization, chapter 5. MIT Press.' },
    {
      citation:
        'Farrell, J. and Shapiro, C. (1990). Horizontal Mergers: An Equilibrium Analysis. American Economic Review, 80(1), 107-126.',
    },
  ],
  endogenous: [
    { name: 'p', label: 'market price', latex: 'P' },
    { name: 'q', label: 'output per firm', latex: 'q' },
    { name: 'Q', label: 'market output', latex: 'Q' },
    { name: 'profit', label: 'profit per firm', latex: '\\pi' },
    { name: 'cs', label: 'consumer surplus', latex: 'CS' },
    { name: 'lerner', label: 'Lerner index (price-cost margin)', latex: 'L' },
    { name: 'd', label: 'demand shifter (log)', latex: 'd' },
    { name: 'm', label: 'marginal-cost shifter (log)', latex: 'm' },
  ],
  exogenous: [
    { name: 'e_d', label: 'demand innovation', latex: '\\varepsilon^d', stderr: 'sigma_d' },
    { name: 'e_m', label: 'cost innovation', latex: '\\varepsilon^m', stderr: 'sigma_m' },
  ],
  parameters: [
    {
      name: 'A',
      label: 'demand intercept',
      latex: 'A',
      value: 100,
      source: 'Illustrative normalisation (library choice)',
    },
    {
      name: 'b',
      label: 'demand slope',
      latex: 'b',
      value: 1,
      source: 'Illustrative normalisation (library choice)',
    },
    {
      name: 'cost',
      label: 'marginal cost',
      latex: 'c',
      value: 40,
      source: 'Illustrative normalisation (library choice)',
    },
    {
      name: 'N',
      label: 'number of firms',
      latex: 'N',
      value: 4,
      source: 'Illustrative: a four-firm market (library choice)',
    },
    {
      name: 'rho_d',
      label: 'persistence of demand',
      latex: '\\rho_d',
      value: 0.9,
      source: 'Illustrative (library choice)',
    },
    {
      name: 'rho_m',
      label: 'persistence of cost',
      latex: '\\rho_m',
      value: 0.8,
      source: 'Illustrative (library choice)',
    },
    {
      name: 'sigma_d',
      label: 'std. dev. of the demand innovation',
      latex: '\\sigma_d',
      value: 0.02,
      source: 'Illustrative (library choice)',
    },
    {
      name: 'sigma_m',
      label: 'std. dev. of the cost innovation',
      latex: '\\sigma_m',
      value: 0.03,
      source: 'Illustrative (library choice)',
    },
  ],
  equations: [
    { label: 'Inverse demand', text: 'p = A*exp(d) - b*Q', latex: 'P_t = A e^{d_t} - b Q_t' },
    {
      label: 'Cournot first-order condition',
      text: 'p - b*q = cost*exp(m)',
      latex: 'P_t - b q_t = c\\, e^{m_t}',
    },
    { label: 'Market output', text: 'Q = N*q', latex: 'Q_t = N q_t' },
    {
      label: 'Profit per firm',
      text: 'profit = (p - cost*exp(m))*q',
      latex: '\\pi_t = \\left(P_t - c\\, e^{m_t}\\right) q_t',
    },
    { label: 'Consumer surplus', text: 'cs = b*Q^2/2', latex: 'CS_t = \\frac{b Q_t^2}{2}' },
    {
      label: 'Lerner index',
      text: 'lerner = (p - cost*exp(m))/p',
      latex: 'L_t = \\frac{P_t - c\\, e^{m_t}}{P_t}',
    },
    {
      label: 'Demand shifter',
      text: 'd = rho_d*d(-1) + e_d',
      latex: 'd_t = \\rho_d d_{t-1} + \\varepsilon^d_t',
    },
    {
      label: 'Cost shifter',
      text: 'm = rho_m*m(-1) + e_m',
      latex: 'm_t = \\rho_m m_{t-1} + \\varepsilon^m_t',
    },
  ],
  steadyState: {
    d: 0,
    m: 0,
    q: '(A - cost)/(b*(N + 1))',
    Q: 'N*q',
    p: '(A + N*cost)/(N + 1)',
    profit: '(p - cost)*q',
    cs: 'b*Q^2/2',
    lerner: '(p - cost)/p',
  },
  calibrationSource:
    'An illustrative normalisation (demand intercept 100, slope 1, marginal cost 40, four firms); no market is calibrated. Replace it with estimates for the market studied.',
  keyVariables: ['p', 'q', 'Q', 'profit', 'lerner'],
  targets: [],
  estimated: [],
  scenario: {
    title: 'Merger: four firms become three',
    description:
      'Comparative statics of a merger of two of the four firms without efficiency gains (N from 4 to 3).',
    changes: { N: 3 },
    initialFactor: {},
  },
};
