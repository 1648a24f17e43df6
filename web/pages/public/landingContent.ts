/** The landing page's copy. */

// The hero's figures are counted from the install (LandingFigures.tsx), never written here.

export const FEATURES = [
  {
    id: 'ideation',
    title: 'AI-supported ideation',
    text: 'Turn a broad interest into sharp research questions, hypotheses and a first proposal.',
  },
  {
    id: 'literature',
    title: 'Automatic literature review',
    text: 'Search OpenAlex, Crossref and arXiv, screen what comes back and get a cited synthesis.',
  },
  {
    id: 'data',
    title: 'Data pipeline',
    text: 'Pull series from the World Bank, IMF and FRED or upload your own, then profile and clean them.',
  },
  {
    id: 'modeling',
    title: 'Modeling support',
    text: 'Specify, calibrate and solve models, with impulse responses and a Dynare export.',
  },
  {
    id: 'code',
    title: 'Code generation',
    text: 'Get documented, runnable analysis code in Python, R, Julia or Dynare, tested in a sandbox.',
  },
  {
    id: 'human',
    title: 'Human-in-the-loop supervision',
    text: 'Every team pauses at checkpoints: approve, or send feedback and the step is redone.',
  },
  {
    id: 'workflow',
    title: 'Workflow optimisation',
    text: 'Chain the teams into one workflow, so each step starts from everything decided before.',
  },
  {
    id: 'reproducibility',
    title: 'Reproducibility',
    text: 'Logs, sources, data versions and code are kept with the project, ready to be replicated.',
  },
] as const;

export const TESTIMONIALS = [
  {
    quote:
      'The literature team found the working papers I would have missed, and every claim in its summary links back to a source I can check.',
    who: 'Doctoral researcher, macroeconomics',
  },
  {
    quote:
      'Going from a vague question to three testable hypotheses took an afternoon instead of a week, and I stayed in control at every step.',
    who: 'Postdoctoral researcher, labour economics',
  },
  {
    quote:
      'Because the whole pipeline is logged, my students can reproduce each other’s work. That alone changed how our group collaborates.',
    who: 'Professor of econometrics',
  },
] as const;

/** Text-only partner marks: no external images. */
export const PARTNERS = [
  {
    monogram: 'UR',
    name: 'University Economics Research Group',
    text: 'A university research group in applied and computational economics.',
  },
  {
    monogram: 'CK',
    name: 'City Knowledge Workshop',
    text: 'A city initiative that brings researchers, students and the public together.',
  },
] as const;
