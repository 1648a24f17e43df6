/**
 * Fun facts for the team screens' footer: economics and literature reviews.
 * Each is a checkable historical fact; keep them that way when adding more.
 */
export const FUN_FACTS: readonly string[] = [
  "Adam Smith's The Wealth of Nations was published in 1776, the same year as the US Declaration of Independence.",
  "The phrase 'invisible hand' appears only once in The Wealth of Nations.",
  'The word economics comes from the Greek oikonomia, "management of a household".',
  "The Nobel memorial prize in economics was established by Sweden's central bank in 1968 and first awarded in 1969, to Ragnar Frisch and Jan Tinbergen.",
  'Elinor Ostrom was the first woman to receive the economics Nobel, in 2009, for her work on how communities govern shared resources.',
  'Ragnar Frisch is credited with coining the word "econometrics"; the Econometric Society was founded in 1930.',
  'In 1949 Bill Phillips built the MONIAC, a hydraulic computer that modelled the UK economy with flowing water.',
  "David Ricardo's 1817 example of comparative advantage traded English cloth for Portuguese wine.",
  "Antoine Augustin Cournot's duopoly model dates from 1838, more than a century before John Nash's equilibrium paper of 1950.",
  'The Quarterly Journal of Economics, founded in 1886, is the oldest professional journal of economics in English.',
  'The American Economic Association was founded in 1885.',
  "Keynes's General Theory of Employment, Interest and Money was published in 1936.",
  'Simon Kuznets presented the first official US national income estimates to Congress in 1934.',
  'The Gini coefficient is named after the Italian statistician Corrado Gini, who described it in 1912.',
  'The Economist introduced the Big Mac index in 1986 as a light-hearted guide to purchasing power parity.',
  "Goodhart's law, \"when a measure becomes a target, it ceases to be a good measure\", is anthropologist Marilyn Strathern's wording of Charles Goodhart's 1975 observation.",
  'The term "meta-analysis" was coined by the statistician Gene V. Glass in 1976.',
  'The Cochrane Collaboration, which set standards for systematic reviews, was founded in 1993.',
  'The PRISMA statement for reporting systematic reviews and meta-analyses was first published in 2009; its current version is PRISMA 2020.',
  "Eugene Garfield's Science Citation Index, first published in 1964, made it possible to follow a paper forward through the works that cite it.",
  'RePEc, the volunteer-run index of economics research papers, started in 1997.',
  'Crossref, the largest registration agency for scholarly DOIs, was founded in 2000.',
  'OpenAlex, a free index of scholarly works, launched in 2022 after Microsoft Academic Graph was retired.',
  "Thomas Malthus's An Essay on the Principle of Population first appeared, anonymously, in 1798.",
];
