import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, startServer, type RunningServer } from './harness';
import { api, DESKTOP, expectAxeClean, newPage, PHONE, screenshot, signInAsAdmin } from './support';

/**
 * The public pages against the real server and built app: landing (testimonials rotate every
 * 5 s), join-team mail drafts, the /demo waiting list (Thank You for 3 s, snackbar for 4 s, the
 * server's message on failure), router redirects and the default error view; axe-clean on a
 * phone and a wide screen.
 */

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('public pages', () => {
  for (const viewport of [PHONE, DESKTOP]) {
    it(`are axe-clean at ${viewport.width}px`, async () => {
      const { context, page } = await newPage(browser, viewport);
      try {
        for (const [path, heading] of [
          ['/', 'Economic research with a team of AI agents, and you in charge'],
          ['/login', 'Sign In'],
          ['/register', 'Sign Up'],
          ['/join-team', 'Join the Team'],
          ['/demo', 'Request a Demo'],
        ] as const) {
          await page.goto(`${server.baseUrl}${path}`);
          await page.getByRole('heading', { level: 1, name: heading }).waitFor();
          await screenshot(page, `public${path.replace(/\//g, '_')}`);
          await expectAxeClean(page, `${path} @${viewport.width}`);
        }
      } finally {
        await context.close();
      }
    });
  }

  it("landing: this install's counts, features, partners as text, and a testimonial that changes every 5 s", async () => {
    const { context, page } = await newPage(browser);
    try {
      await page.goto(server.baseUrl);
      // The figures are counted on this server (here the administrator), never made up.
      const figures = page.getByTestId('landing-figures');
      await figures.waitFor();
      expect(await figures.textContent()).toBe('1Researcher');
      await page.getByText('Counted on this server').waitFor();
      await expect(page.getByText('5K+').count()).resolves.toBe(0);
      await expect(page.getByText('20+').count()).resolves.toBe(0);
      await expect(page.locator('section h3').count()).resolves.toBeGreaterThanOrEqual(8 + 2);
      await expect(page.locator('img').count()).resolves.toBe(0);
      const quote = page.getByTestId('testimonial');
      const first = await quote.textContent();
      const started = Date.now();
      await page.waitForFunction(
        (before) => document.querySelector('[data-testid="testimonial"]')?.textContent !== before,
        first,
        { timeout: 8_000, polling: 100 },
      );
      const elapsed = Date.now() - started;
      expect(elapsed).toBeGreaterThan(3_500);
      expect(elapsed).toBeLessThan(6_500);
      const second = await quote.textContent();
      expect(second).not.toBe(first);
      // Pausing stops the rotation.
      await page.getByRole('button', { name: 'Pause testimonials' }).click();
      await page.waitForTimeout(5_600);
      await expect(quote.textContent()).resolves.toBe(second);
    } finally {
      await context.close();
    }
  });

  it('phone: the site menu loads on the first tap and leads to the public pages', async () => {
    const { context, page } = await newPage(browser, PHONE);
    try {
      const apiCalls: string[] = [];
      page.on('request', (r) => {
        if (new URL(r.url()).pathname.startsWith('/api/')) apiCalls.push(r.url());
      });
      await page.goto(server.baseUrl);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.getByTestId('landing-figures').waitFor();
      // The landing page reads only its counted figures from the API.
      expect(apiCalls.map((u) => new URL(u).pathname)).toEqual(['/api/public/figures']);
      await page.getByRole('button', { name: 'Open site menu' }).click();
      const menu = page.getByRole('menu', { name: 'Site' });
      await menu.waitFor();
      await expect(menu.getByRole('menuitem').allTextContents()).resolves.toEqual([
        'Join the Team',
        'Request a Demo',
        'Sign In',
        'Sign Up',
      ]);
      await expectAxeClean(page, 'site menu @390');
      await menu.getByRole('menuitem', { name: 'Request a Demo' }).click();
      await page.waitForURL(`${server.baseUrl}/demo`);
      await page.getByRole('heading', { level: 1, name: 'Request a Demo' }).waitFor();
      await page.getByRole('button', { name: 'Open site menu' }).click();
      await page.getByRole('menuitem', { name: 'Sign In' }).click();
      await page.waitForURL(`${server.baseUrl}/login`);
    } finally {
      await context.close();
    }
  });

  it("follows the system's reduce-motion setting", async () => {
    const { context, page } = await newPage(browser);
    try {
      const duration = async () => {
        await page.goto(server.baseUrl);
        const button = page.getByRole('link', { name: 'Get Started' });
        await button.waitFor();
        return button.evaluate((el) => getComputedStyle(el).transitionDuration);
      };
      await page.emulateMedia({ reducedMotion: 'no-preference' });
      expect(await duration()).not.toMatch(/^0s(, 0s)*$/);
      await page.emulateMedia({ reducedMotion: 'reduce' });
      expect(await duration()).toMatch(/^0s(, 0s)*$/);
    } finally {
      await context.close();
    }
  });

  it('join-team: dialogs draft e-mails with the spec subjects; links to register and login', async () => {
    const { context, page } = await newPage(browser, PHONE);
    try {
      await page.goto(`${server.baseUrl}/join-team`);
      await expect(
        page.getByRole('link', { name: 'Create an Account' }).getAttribute('href'),
      ).resolves.toBe('/register');
      await expect(
        page.getByRole('link', { name: /Already have an account/ }).getAttribute('href'),
      ).resolves.toBe('/login');

      await page.getByRole('button', { name: 'Count Me In' }).click();
      let dialog = page.getByRole('dialog', { name: 'Contribute to the Platform' });
      await dialog.getByLabel('Name').fill('Ada');
      await dialog.getByLabel('Email').fill('ada@example.org');
      await dialog.getByLabel('Message').fill('I can help with the data team.');
      let href = (await dialog.getByRole('link', { name: 'Send' }).getAttribute('href')) ?? '';
      let url = new URL(href);
      expect(url.protocol).toBe('mailto:');
      expect(url.pathname).toBe('contact@econagents.org');
      expect(url.searchParams.get('subject')).toBe('Join Our Team - Interest');
      expect(url.searchParams.get('body')).toContain('Message: I can help with the data team.');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'hidden' });

      await page.getByRole('button', { name: 'Start With an Idea' }).click();
      dialog = page.getByRole('dialog', { name: 'Start With an Idea' });
      for (const label of ['Name', 'Email', 'Idea', 'Expectations']) {
        await dialog.getByLabel(label).waitFor();
      }
      await dialog.getByLabel('Idea').fill('Minimum wages and automation');
      href = (await dialog.getByRole('link', { name: 'Send' }).getAttribute('href')) ?? '';
      url = new URL(href);
      expect(url.searchParams.get('subject')).toBe('Start With an Idea - Support Request');
      expect(url.searchParams.get('body')).toBe('Idea: Minimum wages and automation');
    } finally {
      await context.close();
    }
  });

  it('demo: joins the waiting list (Thank You 3 s, snackbar 4 s) and the entry is stored', async () => {
    const { context, page } = await newPage(browser);
    try {
      await page.goto(`${server.baseUrl}/demo`);
      const demoHref = await page
        .getByRole('main')
        .getByRole('link', { name: 'Request a Demo' })
        .getAttribute('href');
      expect(new URL(demoHref ?? '').searchParams.get('subject')).toBe('Demo Request');
      await expect(page.getByText('What to Expect').isVisible()).resolves.toBe(true);
      await expect(page.locator('h3').count()).resolves.toBe(3);
      await expect(page.getByLabel('Email').getAttribute('type')).resolves.toBe('email');

      await page.getByLabel('Name').fill('  Grace Hopper ');
      await page.getByLabel('Email').fill(' grace@example.org ');
      await page.getByLabel('Affiliation').fill('   ');
      await page.getByLabel('Interest area').click();
      const options = await page.getByRole('option').allTextContents();
      expect(options.slice(1)).toEqual([
        'Macroeconomics',
        'Microeconomics',
        'Econometrics',
        'Behavioral Economics',
        'Development Economics',
        'Financial Economics',
        'Labor Economics',
        'Environmental Economics',
        'Other',
      ]);
      await page.getByRole('option', { name: 'Econometrics' }).click();
      const sent = page.waitForRequest(
        (r) => r.url().endsWith('/api/waiting-list') && r.method() === 'POST',
      );
      await page.getByRole('button', { name: 'Join the Waiting List' }).click();
      expect((await sent).postDataJSON()).toEqual({
        name: 'Grace Hopper',
        email: 'grace@example.org',
        interestArea: 'Econometrics',
      });
      const thanks = page.getByText('Thank You', { exact: true });
      await thanks.waitFor();
      const shownAt = Date.now();
      const snack = page.getByTestId('waiting-list-snackbar');
      await expect(snack.textContent()).resolves.toContain('Successfully joined the waiting list!');
      await thanks.waitFor({ state: 'detached', timeout: 6_000 });
      const thankYouMs = Date.now() - shownAt;
      expect(thankYouMs).toBeGreaterThan(2_300);
      expect(thankYouMs).toBeLessThan(4_500);
      await expect(page.getByLabel('Name').inputValue()).resolves.toBe('');
      await snack.waitFor({ state: 'detached', timeout: 6_000 });
      const snackMs = Date.now() - shownAt;
      expect(snackMs).toBeGreaterThan(3_300);

      const admin = await signInAsAdmin(server);
      const list = await api<{
        data: { entries: Array<{ email: string; affiliation?: string }> };
      }>(server, 'GET', '/api/waiting-list', { token: admin.tokens.accessToken });
      const entry = list.body.data.entries.find((e) => e.email === 'grace@example.org');
      expect(entry).toBeDefined();
      expect(entry?.affiliation).toBeUndefined();
    } finally {
      await context.close();
    }
  });

  it('demo: a refused entry shows the server message in the snackbar and no Thank You', async () => {
    const { context, page } = await newPage(browser, PHONE);
    try {
      await page.goto(`${server.baseUrl}/demo`);
      // Required fields are checked before anything is sent.
      await page.getByRole('button', { name: 'Join the Waiting List' }).click();
      await page.getByText('Name is required').waitFor();
      await page.getByLabel('Name').fill('Bad Address');
      await page.getByLabel('Email').fill('not-an-address');
      await page.getByRole('button', { name: 'Join the Waiting List' }).click();
      const snack = page.getByTestId('waiting-list-snackbar');
      await snack.waitFor();
      await expect(snack.textContent()).resolves.toContain('email must be a valid e-mail address');
      await expect(page.getByText('Thank You', { exact: true }).count()).resolves.toBe(0);
      await expect(page.getByLabel('Email').inputValue()).resolves.toBe('not-an-address');
    } finally {
      await context.close();
    }
  });

  it('routes: unknown paths go to /, /app without a session goes to /login', async () => {
    const { context, page } = await newPage(browser);
    try {
      await page.goto(`${server.baseUrl}/no/such/page`);
      await page.waitForURL(`${server.baseUrl}/`);
      await page.goto(`${server.baseUrl}/app/settings`);
      await page.waitForURL(`${server.baseUrl}/login`);
      await page.goto(`${server.baseUrl}/projects`);
      await page.waitForURL(`${server.baseUrl}/login`);
      await page.getByRole('link', { name: 'Sign Up' }).last().click();
      await page.waitForURL(`${server.baseUrl}/register`);
    } finally {
      await context.close();
    }
  });

  it('a page chunk that cannot load shows the default error view', async () => {
    const { context, page } = await newPage(browser);
    try {
      await page.route('**/assets/JoinTeamPage-*.js', (route) => route.abort());
      await page.goto(`${server.baseUrl}/join-team`);
      await page.getByRole('heading', { name: 'Unexpected Application Error!' }).waitFor();
    } finally {
      await context.close();
    }
  });
});
