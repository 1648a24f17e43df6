import type { ModelDescriptionInput } from '../../../../common/teams/model';

/** A two-country Armington endowment model with iceberg trade costs. */
export const trade: ModelDescriptionInput = {
  type: 'Trade',
  title: 'Two-country Armington model with iceberg trade costs',
  summary:
    'Home and Foreign each produce one national variety and consume both with CES preferences; shipping abroad costs a fraction of the good (iceberg costs). The terms of trade clear the market for the Home good. Endowment shocks move the terms of trade; a trade-liberalisation scenario measures the gains from lower trade costs.',
  framework: `**Agents.** A representative consumer in each country spends its income on the two national varieties with CES preferences $\\left[a^{1/\\sigma} c_{H}^{(\\sigma-1)/\\sigma} + (1-a)^{1/\\sigma} c_{F}^{(\\sigma-1)/\\sigma}\\right]^{\\sigma/(\\sigma-1)}$ (goods distinguished by origin, Armington 1969). Each country is endowed with its own good, $Y_H e^{z_H}$ and $Y_F e^{z_F}$.

**Markets.** Goods markets are competitive; exporting one unit requires shipping $\\tau \\geq 1$ units (iceberg costs). The Foreign good is the numeraire; the price of the Home good $p_H$ is the terms of trade and clears the market for Home goods (the Foreign market then clears by Walras' law). Trade is balanced.

**Assumptions.** No capital, no labour choice, no asset trade; endowments follow AR(1) processes; $a = 1/2$ means no preference home bias, so home bias in spending comes from trade costs alone.

**Mechanisms.** The domestic expenditure share is $\\lambda_H = a\\left(\\frac{p_H}{P_H}\\right)^{1-\\sigma}$. Lower trade costs raise trade and real income; in this class of models the welfare gain from a change in trade costs is $\\hat W = \\hat\\lambda^{1/(1-\\sigma)}$ (Arkolakis, Costinot and Rodríguez-Clare 2012). A larger Home endowment lowers the relative price of the Home good (a terms-of-trade deterioration), which shares the gain with Foreign.`,
  references: [
    {
      citation:
        'Armington, P. S. (1969). A Theory of Demand for Products Distinguished by Place of Production. IMF Staff Papers, 16(1), 159-178.',
    },
    {
      citation:
        'Anderson, J. E. and van Wincoop, E. (2004). Trade Costs. Journal of Economic Literature, 42(3), 691-751.',
    },
    {
      citation:
        'Arkolakis, C., Costinot, A. and Rodríguez-Clare, A. (2012). New Trade Models, Same Old Gains? American Economic Review, 102(1), 94-130.',
    },
    {
      citation:
        'Backus, D. K., Kehoe, P. J. and Kydland, F. E. (1994). Dynamics of the Trade Balance and the Terms of Trade: The J-Curve? American Economic Review, 84(1), 84-103.',
    },
  ],
  endogenous: [
    { name: 'pH', label: 'price of the Home good (terms of trade)', latex: 'p_H' },
    { name: 'PH', label: 'Home consumer price index', latex: 'P_H' },
    { name: 'PF', label: 'Foreign consumer price index', latex: 'P_F' },
    { name: 'cHH', label: 'Home consumption of the Home good', latex: 'c_{HH}' },
    { name: 'cHF', label: 'Home consumption of the Foreign good (imports)', latex: 'c_{HF}' },
    { name: 'cFF', label: 'Foreign consumption of the Foreign good', latex: 'c_{FF}' },
    { name: 'cFH', label: 'Foreign consumption of the Home good (exports)', latex: 'c_{FH}' },
    { name: 'lamH', label: 'Home domestic expenditure share', latex: '\\lambda_H' },
    { name: 'WH', label: 'Home real income (welfare)', latex: 'W_H' },
    { name: 'WF', label: 'Foreign real income (welfare)', latex: 'W_F' },
    { name: 'zH', label: 'Home endowment shock (log)', latex: 'z_H' },
    { name: 'zF', label: 'Foreign endowment shock (log)', latex: 'z_F' },
  ],
  exogenous: [
    { name: 'e_H', label: 'Home endowment innovation', latex: '\\varepsilon^H', stderr: 'sigma_z' },
    {
      name: 'e_F',
      label: 'Foreign endowment innovation',
      latex: '\\varepsilon^F',
      stderr: 'sigma_z',
    },
  ],
  parameters: [
    {
      name: 'sigma',
      label: 'Armington elasticity of substitution',
      latex: '\\sigma',
      value: 5,
      source:
        'Anderson and van Wincoop (2004) conclude that the elasticity is likely between 5 and 10; the low end is used',
    },
    {
      name: 'tau',
      label: 'iceberg trade cost factor',
      latex: '\\tau',
      value: 1.74,
      source:
        'Anderson and van Wincoop (2004): international trade costs of about 74% (tax equivalent) for industrialised countries',
    },
    {
      name: 'a',
      label: 'preference weight on the own good',
      latex: 'a',
      value: 0.5,
      source: 'No preference home bias (library choice): home bias comes from trade costs',
    },
    {
      name: 'YH',
      label: 'Home endowment',
      latex: 'Y_H',
      value: 1,
      source: 'Normalisation (symmetric countries)',
    },
    {
      name: 'YF',
      label: 'Foreign endowment',
      latex: 'Y_F',
      value: 1,
      source: 'Normalisation (symmetric countries)',
    },
    {
      name: 'rho_z',
      label: 'persistence of endowment shocks',
      latex: '\\rho_z',
      value: 0.9,
      source: 'Illustrative (library choice)',
    },
    {
      name: 'sigma_z',
      label: 'std. dev. of endowment innovations',
      latex: '\\sigma_z',
      value: 0.01,
      source: 'Illustrative (library choice)',
    },
  ],
  equations: [
    {
      label: 'Home price index',
      text: 'PH = (a*pH^(1 - sigma) + (1 - a)*tau^(1 - sigma))^(1/(1 - sigma))',
      latex:
        'P_H = \\left[a p_H^{1-\\sigma} + (1-a)\\tau^{1-\\sigma}\\right]^{\\frac{1}{1-\\sigma}}',
    },
    {
      label: 'Foreign price index',
      text: 'PF = (a + (1 - a)*(tau*pH)^(1 - sigma))^(1/(1 - sigma))',
      latex: 'P_F = \\left[a + (1-a)(\\tau p_H)^{1-\\sigma}\\right]^{\\frac{1}{1-\\sigma}}',
    },
    {
      label: 'Home demand for the Home good',
      text: 'cHH = a*(pH/PH)^(-sigma)*pH*YH*exp(zH)/PH',
      latex: 'c_{HH} = a\\left(\\frac{p_H}{P_H}\\right)^{-\\sigma}\\frac{p_H Y_H e^{z_H}}{P_H}',
    },
    {
      label: 'Home demand for the Foreign good',
      text: 'cHF = (1 - a)*(tau/PH)^(-sigma)*pH*YH*exp(zH)/PH',
      latex:
        'c_{HF} = (1-a)\\left(\\frac{\\tau}{P_H}\\right)^{-\\sigma}\\frac{p_H Y_H e^{z_H}}{P_H}',
    },
    {
      label: 'Foreign demand for the Foreign good',
      text: 'cFF = a*(1/PF)^(-sigma)*YF*exp(zF)/PF',
      latex: 'c_{FF} = a\\left(\\frac{1}{P_F}\\right)^{-\\sigma}\\frac{Y_F e^{z_F}}{P_F}',
    },
    {
      label: 'Foreign demand for the Home good',
      text: 'cFH = (1 - a)*(tau*pH/PF)^(-sigma)*YF*exp(zF)/PF',
      latex:
        'c_{FH} = (1-a)\\left(\\frac{\\tau p_H}{P_F}\\right)^{-\\sigma}\\frac{Y_F e^{z_F}}{P_F}',
    },
    {
      label: 'Market for the Home good',
      text: 'YH*exp(zH) = cHH + tau*cFH',
      latex: 'Y_H e^{z_H} = c_{HH} + \\tau c_{FH}',
    },
    {
      label: 'Domestic expenditure share',
      text: 'lamH = a*(pH/PH)^(1 - sigma)',
      latex: '\\lambda_H = a\\left(\\frac{p_H}{P_H}\\right)^{1-\\sigma}',
    },
    {
      label: 'Home real income',
      text: 'WH = pH*YH*exp(zH)/PH',
      latex: 'W_H = \\frac{p_H Y_H e^{z_H}}{P_H}',
    },
    {
      label: 'Foreign real income',
      text: 'WF = YF*exp(zF)/PF',
      latex: 'W_F = \\frac{Y_F e^{z_F}}{P_F}',
    },
    {
      label: 'Home endowment',
      text: 'zH = rho_z*zH(-1) + e_H',
      latex: 'z_{H,t} = \\rho_z z_{H,t-1} + \\varepsilon^H_t',
    },
    {
      label: 'Foreign endowment',
      text: 'zF = rho_z*zF(-1) + e_F',
      latex: 'z_{F,t} = \\rho_z z_{F,t-1} + \\varepsilon^F_t',
    },
  ],
  steadyState: {
    zH: 0,
    zF: 0,
    pH: 1,
    PH: '(a + (1 - a)*tau^(1 - sigma))^(1/(1 - sigma))',
    PF: 'PH',
    lamH: 'a*(1/PH)^(1 - sigma)',
    cHH: 'a*PH^sigma/PH',
    cHF: '(1 - a)*(tau/PH)^(-sigma)/PH',
    cFF: 'cHH',
    cFH: 'cHF',
    WH: '1/PH',
    WF: '1/PF',
  },
  calibrationSource:
    'Trade elasticity and trade costs from the survey of Anderson and van Wincoop (2004); symmetric countries without preference home bias; the shock process is illustrative.',
  keyVariables: ['pH', 'lamH', 'WH', 'WF', 'cFH', 'cHF'],
  targets: [],
  estimated: [],
  scenario: {
    title: 'Trade liberalisation: trade costs fall from 74% to 50%',
    description:
      'Comparative statics and transition when the iceberg cost factor falls permanently from 1.74 to 1.5.',
    changes: { tau: 1.5 },
    initialFactor: {},
  },
};
