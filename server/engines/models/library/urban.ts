import type { ModelDescriptionInput } from '../../../../common/teams/model';

/** The closed monocentric city (Alonso-Muth-Mills) with Cobb-Douglas preferences. */
export const urban: ModelDescriptionInput = {
  type: 'Urban',
  title: 'Monocentric city model (Alonso-Muth-Mills, closed city)',
  summary:
    'Identical households commute to a central business district and choose land (housing) and other consumption; land rents fall with distance so that utility is equal everywhere. The city edge is where urban rent equals agricultural rent; a fixed population pins down utility. Income shocks move the city over time; a scenario lowers commuting costs.',
  framework: `**Agents.** $N$ identical households (a closed city) earn income $w\\,e^{z_t}$ at the centre, pay commuting cost $t x$ when living at distance $x$, and have utility $c^{1-\\beta} h^{\\beta}$ over consumption and land $h$. Absentee landlords receive land rent; at the edge land goes to agriculture at rent $r_A$.

**Markets.** A competitive land market along a linear city of unit width: the bid rent $r(x)$ makes households indifferent between locations. Population is fixed; utility $u$ is determined in equilibrium.

**Assumptions.** Land is the only housing input (no structures); commuting cost is linear in distance; the income shock $z_t$ is an AR(1) process and the city adjusts instantly (the equilibrium is static in every period).

**Mechanisms.** With Cobb-Douglas preferences the bid rent is $r(x) = r_A\\left(\\frac{w - tx}{w - t\\bar x}\\right)^{1/\\beta}$ and density $1/h(x) = r(x)/(\\beta(w - tx))$. Integrating density up to the edge gives population, which pins down the edge $\\bar x = \\frac{w}{t}\\left[1 - \\left(1 + \\frac{tN}{r_A}\\right)^{-\\beta}\\right]$. Lower commuting costs or higher incomes make the city spread out (larger $\\bar x$) and raise utility; a larger population raises rents everywhere and lowers utility.`,
  references: [
    { citation: 'Alonso, W. (1964). Location and Land Use. Harvard University Press.' },
    { citation: 'Muth, R. F. (1969). Cities and Housing. University of Chicago Press.' },
    {
      citation:
        'Mills, E. S. (1967). An Aggregative Model of Resource Allocation in a Metropolitan Area. American Economic Review, 57(2), 197-210.',
    },
    {
      citation:
        'Brueckner, J. K. (1987). The Structure of Urban Equilibria: A Unified Treatment of the Muth-Mills Model. In Handbook of Regional and Urban Economics, vol. 2, 821-845.',
    },
    {
      citation:
        'Davis, M. A. and Ortalo-Magné, F. (2011). Household Expenditures, Wages, Rents. Review of Economic Dynamics, 14(2), 248-261.',
    },
  ],
  endogenous: [
    { name: 'xbar', label: 'city edge (distance from the centre)', latex: '\\bar{x}' },
    { name: 'u', label: 'equilibrium utility', latex: 'u' },
    { name: 'r0', label: 'land rent at the centre', latex: 'r_0' },
    { name: 'dens0', label: 'population density at the centre', latex: 'D_0' },
    { name: 'tdr', label: 'total differential land rent', latex: 'TDR' },
    { name: 'inc', label: 'household income', latex: 'w' },
    { name: 'z', label: 'income shock (log)', latex: 'z' },
  ],
  exogenous: [
    { name: 'e_z', label: 'income innovation', latex: '\\varepsilon^z', stderr: 'sigma_z' },
  ],
  parameters: [
    {
      name: 'wbar',
      label: 'mean household income',
      latex: '\\bar{w}',
      value: 1,
      source: 'Normalisation: incomes and rents are in units of mean income',
    },
    {
      name: 'beta',
      label: 'housing (land) expenditure share',
      latex: '\\beta',
      value: 0.24,
      source:
        'Davis and Ortalo-Magné (2011): expenditure share on housing of about 0.24, stable across US cities',
    },
    {
      name: 't',
      label: 'commuting cost per unit distance',
      latex: 't',
      value: 0.01,
      source: 'Illustrative: commuting from 20 km costs about 20% of income (library choice)',
    },
    {
      name: 'N',
      label: 'population',
      latex: 'N',
      value: 150,
      source: 'Illustrative: chosen with rA so the city edge is about 20 km (library choice)',
    },
    {
      name: 'rA',
      label: 'agricultural land rent',
      latex: 'r_A',
      value: 1,
      source: 'Illustrative normalisation (library choice)',
    },
    {
      name: 'rho_z',
      label: 'persistence of income',
      latex: '\\rho_z',
      value: 0.9,
      source: 'Illustrative (library choice)',
    },
    {
      name: 'sigma_z',
      label: 'std. dev. of the income innovation',
      latex: '\\sigma_z',
      value: 0.02,
      source: 'Illustrative (library choice)',
    },
  ],
  equations: [
    { label: 'Income', text: 'inc = wbar*exp(z)', latex: 'w_t = \\bar{w} e^{z_t}' },
    {
      label: 'Population fits inside the edge',
      text: 'N = rA/t*((inc/(inc - t*xbar))^(1/beta) - 1)',
      latex:
        'N = \\frac{r_A}{t}\\left[\\left(\\frac{w_t}{w_t - t\\bar{x}_t}\\right)^{1/\\beta} - 1\\right]',
    },
    {
      label: 'Utility at the edge',
      text: 'u = (1 - beta)^(1 - beta)*beta^beta*(inc - t*xbar)*rA^(-beta)',
      latex:
        'u_t = (1-\\beta)^{1-\\beta}\\beta^{\\beta}\\left(w_t - t\\bar{x}_t\\right) r_A^{-\\beta}',
    },
    {
      label: 'Rent at the centre',
      text: 'r0 = rA*(inc/(inc - t*xbar))^(1/beta)',
      latex: 'r_{0,t} = r_A\\left(\\frac{w_t}{w_t - t\\bar{x}_t}\\right)^{1/\\beta}',
    },
    {
      label: 'Density at the centre',
      text: 'dens0 = r0/(beta*inc)',
      latex: 'D_{0,t} = \\frac{r_{0,t}}{\\beta w_t}',
    },
    {
      label: 'Total differential rent',
      text: 'tdr = rA*beta/(t*(1 + beta))*(inc^((1 + beta)/beta) - (inc - t*xbar)^((1 + beta)/beta))/(inc - t*xbar)^(1/beta) - rA*xbar',
      latex: 'TDR_t = \\int_0^{\\bar{x}_t} \\left(r(x) - r_A\\right) dx',
    },
    {
      label: 'Income shock',
      text: 'z = rho_z*z(-1) + e_z',
      latex: 'z_t = \\rho_z z_{t-1} + \\varepsilon^z_t',
    },
  ],
  steadyState: {
    z: 0,
    inc: 'wbar',
    xbar: 'inc/t*(1 - (1 + t*N/rA)^(-beta))',
    u: '(1 - beta)^(1 - beta)*beta^beta*(inc - t*xbar)*rA^(-beta)',
    r0: 'rA*(inc/(inc - t*xbar))^(1/beta)',
    dens0: 'r0/(beta*inc)',
    tdr: 'rA*beta/(t*(1 + beta))*(inc^((1 + beta)/beta) - (inc - t*xbar)^((1 + beta)/beta))/(inc - t*xbar)^(1/beta) - rA*xbar',
  },
  calibrationSource:
    'The housing share follows Davis and Ortalo-Magné (2011); income, commuting cost, population and agricultural rent are an illustrative normalisation that puts the city edge near 20 km.',
  keyVariables: ['xbar', 'u', 'r0', 'dens0', 'tdr'],
  targets: [],
  estimated: [],
  scenario: {
    title: 'Cheaper commuting: commuting cost falls by 20%',
    description:
      'Comparative statics when the commuting cost per unit distance falls permanently from 0.01 to 0.008.',
    changes: { t: 0.008 },
    initialFactor: {},
  },
};
