// Temporary screenshot script (web-pages helper); deleted when done.
import { startServer, launchBrowser, seriousA11yViolations } from './harness';
import { approvedUser, call, openSignedIn, VIEWPORTS } from './web-pages.helpers';

const server = await startServer();
const browser = await launchBrowser();
const out = '/tmp/webpages-shots';
const only = process.argv[2];
try {
  const s = await approvedUser(server, {
    email: 'rita@e2e.example',
    password: 'rita-password-1',
    displayName: 'Rita Researcher',
  });
  const t = s.tokens.accessToken;
  const ds = await call<{ data: { dataset: { id: string } } }>(
    server.baseUrl,
    'POST',
    '/api/datasets',
    {
      token: t,
      body: {
        name: 'World Development Indicators',
        source: 'world_bank',
        dataType: 'panel',
        description:
          'Country-year development indicators from the World Bank, covering GDP, population, education and health.',
        recordCount: 17000,
        dateRange: { start: '1960', end: '2023' },
        format: 'api',
        license: 'CC BY 4.0',
        integrationLevel: 'full',
        fields: [
          { name: 'gdp', type: 'number', description: 'GDP current US$' },
          { name: 'pop', type: 'number' },
          { name: 'country', type: 'string' },
        ],
        metadata: {
          apiAvailable: true,
          citation: 'World Bank (2024). World Development Indicators.',
        },
      },
    },
  );
  await call(server.baseUrl, 'POST', '/api/datasets', {
    token: t,
    body: { name: 'FRED GDP', source: 'fred', dataType: 'time_series', recordCount: 300 },
  });
  const areas = ['Labor Economics', 'Macroeconomics', 'Labor Economics', 'Development Economics'];
  let pid = '';
  for (const [i, a] of areas.entries()) {
    const r = await call<{ data: { project: { id: string } } }>(
      server.baseUrl,
      'POST',
      '/api/projects',
      {
        token: t,
        body: {
          title: `Project ${i + 1}: ${['Minimum wage and local employment', 'Monetary policy transmission in small open economies', 'Remote work and productivity', 'Microfinance and household consumption'][i]}`,
          researchArea: a,
          description: 'A study of how things relate to other things. '.repeat(6),
          status: ['paused', 'planning', 'completed', 'active'][i],
        },
      },
    );
    pid = r.body.data.project.id;
  }
  await call(server.baseUrl, 'PUT', `/api/projects/${pid}`, {
    token: t,
    body: {
      researchQuestions: ['Does microfinance raise consumption?', 'For whom?'],
      hypotheses: ['H1: consumption rises by 5%'],
      authors: ['Rita Researcher'],
      datasets: [ds.body.data.dataset.id],
    },
  });
  await call(server.baseUrl, 'POST', '/api/documents', {
    token: t,
    body: {
      name: 'Euler equation notes',
      category: 'model_documentation',
      format: 'md',
      projectId: pid,
      content:
        "# Euler equation\n\nThe consumer solves $$\\max E_0 \\sum_{t=0}^\\infty \\beta^t u(c_t)$$ so that $u'(c_t) = \\beta (1+r) E_t u'(c_{t+1})$.\n\n| a | b |\n|---|---|\n| 1 | 2 |",
    },
  });
  for (const vp of VIEWPORTS) {
    const ctx = await browser.newContext({
      viewport: { width: vp.width, height: vp.height },
      bypassCSP: true,
    });
    const page = await ctx.newPage();
    page.on('console', (m) => m.type() === 'error' && console.log('console:', m.text()));
    page.on('pageerror', (e) => console.log('pageerror:', e.message));
    await openSignedIn(page, server.baseUrl, s, '/app');
    for (const path of [
      '/app',
      '/app/project-manager',
      `/app/projects/${pid}`,
      '/app/data-explorer',
      '/app/data-explorer?tab=visualization',
      '/app/documentation',
      `/app/documentation?doc=`,
      '/app/settings',
      '/app/settings?section=api-keys',
      '/app/settings?section=ai',
      '/app/settings?section=data',
      '/app/settings?section=security',
    ]) {
      if (only && !path.includes(only)) continue;
      let p = path;
      if (p.endsWith('doc=')) {
        const docs = await call<{ data: { documents: Array<{ id: string }> } }>(
          server.baseUrl,
          'GET',
          '/api/documents',
          { token: t },
        );
        p += docs.body.data.documents[0]!.id;
      }
      await page.goto(server.baseUrl + p);
      await page.waitForLoadState('networkidle');
      await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'), null, { timeout: 15000 });
      await page.waitForTimeout(500);
      const name = `${vp.name}${path.replace(/[/?=&]/g, '_').replace(/_[0-9a-f-]{36}/, '_id')}`;
      await page.screenshot({ path: `${out}/${name}.png`, fullPage: true });
      if (vp.width < 500) {
        const h = await page.evaluate(() => document.documentElement.scrollHeight);
        for (let y = 0, i = 0; y < h; y += 1000, i++) {
          await page.screenshot({ path: `${out}/${name}-part${i}.png`, fullPage: true, clip: { x: 0, y, width: 390, height: Math.min(1000, h - y) } });
        }
      }
      console.log(name, JSON.stringify(await seriousA11yViolations(page)));
    }
    await ctx.close();
  }
} finally {
  await browser.close();
  await server.stop();
}
