import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  ROOT,
  isListening,
  launchBrowser,
  NPM_RUN_SERVE_COMMAND,
  startServer,
  webDistDir,
  type RunningServer,
} from './harness';
import { api, E2E_ADMIN, screenshot, signIn, signInAsAdmin } from './support';

/**
 * The process-level promises of the README: `npm start` on the embedded defaults builds the web
 * app, migrates a fresh PGlite database under DATA_DIR, creates the configured admin and serves
 * UI and API on PORT; SIGTERM shuts it down cleanly and everything survives a restart. Without
 * ADMIN_EMAIL a generated admin password is printed once. The built app shows its version.
 */

const PACKAGE_VERSION = (
  JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }
).version;

const running: RunningServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()));
});
afterAll(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

interface UserRow {
  id: string;
  email: string;
  role: string;
  status: string;
}
interface EntryRow {
  email: string;
  name: string;
  interestArea?: string;
}

const RESEARCHER = {
  email: 'rita.researcher@e2e.example',
  password: 'rita-password-1',
  displayName: 'Rita Researcher',
  reason: 'Checking that accounts survive a restart',
};
const WAITER = {
  name: 'Walter Waiting',
  email: 'walter@e2e.example',
  affiliation: 'University of Tests',
  interestArea: 'Macroeconomics',
};

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

describe('npm start on the embedded defaults', () => {
  it('builds, serves UI and API, survives SIGTERM and a restart with its data', async () => {
    const webDir = tempDir('ea-web-');
    const dataDir = tempDir('ea-data-');
    const server = await startServer({
      command: ['npm', 'start'],
      dataDir,
      // The build goes to a temporary directory: dist/ may be in use by other test runs.
      env: { WEB_DIST_DIR: webDir, LOG_LEVEL: 'info' },
      timeoutMs: 240_000,
    });
    running.push(server);
    const coldNpmStart = server.startupMs();

    // The build landed where WEB_DIST_DIR said, and the server serves it with the API.
    expect(fs.existsSync(path.join(webDir, 'index.html'))).toBe(true);
    const home = await fetch(`${server.baseUrl}/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('<div id="root">');
    const deepLink = await fetch(`${server.baseUrl}/app/projects`);
    expect(deepLink.status).toBe(200);
    expect(deepLink.headers.get('content-type')).toContain('text/html');
    // Alive, and ready: the embedded database and the job queue answer.
    const health = await api<{ data: { status: string } }>(server, 'GET', '/api/health');
    expect(health.body.data).toMatchObject({ status: 'ok' });
    const ready = await api<{ data: { status: string; database: { kind: string } } }>(
      server,
      'GET',
      '/api/ready',
    );
    expect(ready.body.data).toMatchObject({ status: 'ok', database: { kind: 'pglite' } });
    expect(fs.existsSync(path.join(dataDir, 'pgdata'))).toBe(true);
    expect((await api(server, 'GET', '/version.json')).body).toEqual({
      version: PACKAGE_VERSION,
      prefix: 'Demo Version',
    });

    // The configured admin exists and can sign in; create data as users would.
    const admin = await signInAsAdmin(server);
    expect(admin.user.role).toBe('admin');
    expect((await api(server, 'POST', '/api/auth/register', { body: RESEARCHER })).status).toBe(
      201,
    );
    expect((await api(server, 'POST', '/api/waiting-list', { body: WAITER })).status).toBe(201);
    const users = await api<{ data: { users: UserRow[] } }>(server, 'GET', '/api/auth/users', {
      token: admin.tokens.accessToken,
    });
    const rita = users.body.data.users.find((u) => u.email === RESEARCHER.email);
    expect(rita?.status).toBe('pending');
    const approved = await api(server, 'PUT', `/api/auth/users/${rita!.id}/status`, {
      token: admin.tokens.accessToken,
      body: { status: 'approved' },
    });
    expect(approved.status).toBe(200);
    const ritaSession = await signIn(server, RESEARCHER.email, RESEARCHER.password);

    // SIGTERM to npm (as a supervisor sends it): the server closes PGlite and exits 0.
    const exit = await server.stop('SIGTERM');
    expect(exit).toEqual({ code: 0, signal: null });
    expect(server.output()).toContain('Shutting down');
    expect(await isListening(server.port)).toBe(false);

    const beforeRestart = server.output().length;
    await server.restart();
    const warmNpmStart = server.startupMs();
    const secondRun = server.output().slice(beforeRestart);
    expect(secondRun).not.toMatch(/"level":(50|60)/);

    // Same secrets (tokens issued before the restart still work), same rows.
    const profile = await api<{ data: { user: { email: string } } }>(
      server,
      'GET',
      '/api/auth/profile',
      { token: admin.tokens.accessToken },
    );
    expect(profile.status).toBe(200);
    expect(profile.body.data.user.email).toBe(E2E_ADMIN.email);
    const refreshed = await api(server, 'POST', '/api/auth/refresh', {
      body: { refreshToken: ritaSession.tokens.refreshToken },
    });
    expect(refreshed.status).toBe(200);
    const adminAgain = await signInAsAdmin(server);
    const usersAfter = await api<{ data: { users: UserRow[] } }>(server, 'GET', '/api/auth/users', {
      token: adminAgain.tokens.accessToken,
    });
    expect(usersAfter.body.data.users.filter((u) => u.email === E2E_ADMIN.email)).toHaveLength(1);
    expect(usersAfter.body.data.users.find((u) => u.email === RESEARCHER.email)).toMatchObject({
      status: 'approved',
      role: rita!.role,
    });
    const list = await api<{ data: { entries: EntryRow[] } }>(server, 'GET', '/api/waiting-list', {
      token: adminAgain.tokens.accessToken,
    });
    expect(list.body.data.entries.filter((e) => e.email === WAITER.email)).toEqual([
      expect.objectContaining({ name: WAITER.name, interestArea: WAITER.interestArea }),
    ]);
    await signIn(server, RESEARCHER.email, RESEARCHER.password);
    expect(await server.stop()).toEqual({ code: 0, signal: null });

    // The server alone (what `npm run serve` runs), on a fresh and then on an existing data dir.
    const alone = await startServer({
      command: NPM_RUN_SERVE_COMMAND,
      dataDir: tempDir('ea-data-'),
      env: { WEB_DIST_DIR: webDir },
    });
    running.push(alone);
    const coldServer = alone.startupMs();
    await alone.restart();
    const warmServer = alone.startupMs();

    console.log(
      [
        'Start-up times (until /api/health answers 200):',
        `  npm start, fresh data dir (build + migrate + admin): ${seconds(coldNpmStart)}`,
        `  npm start, existing data dir (build + start):        ${seconds(warmNpmStart)}`,
        `  server alone, fresh data dir:                        ${seconds(coldServer)}`,
        `  server alone, existing data dir:                     ${seconds(warmServer)}`,
        `  (vite: ${/built in [\d.]+ ?m?s/.exec(server.output())?.[0] ?? 'no build time printed'})`,
      ].join('\n'),
    );
  }, 600_000);
});

describe('first start without ADMIN_EMAIL', () => {
  it('prints a generated admin password once; it works and is not printed again', async () => {
    const server = await startServer({
      env: { ADMIN_EMAIL: undefined, ADMIN_PASSWORD: undefined, LOG_LEVEL: 'info' },
    });
    running.push(server);
    const printed = /email:\s+(\S+)\s+password:\s+(\S+)/.exec(server.stdout());
    expect(printed, server.output()).not.toBeNull();
    const [, email, password] = printed as unknown as [string, string, string];
    expect(email).toBe('admin@econagents.local');

    const session = await signIn(server, email, password);
    expect(session.user.role).toBe('admin');
    // Once on stdout, and nowhere in the logs (which include the sign-in request above).
    expect(server.output().split(password)).toHaveLength(2);

    const beforeRestart = server.output().length;
    await server.restart();
    const secondRun = server.output().slice(beforeRestart);
    expect(secondRun).not.toContain(password);
    expect(secondRun).not.toContain('No administrator existed');
    expect((await signIn(server, email, password)).user.role).toBe('admin');
    expect(await signIn(server, email, 'not-the-password').catch(() => 'refused')).toBe('refused');
  }, 180_000);
});

describe('the built web app in Chromium', () => {
  it('loads at / and shows "{prefix} {version}" from /version.json', async () => {
    const dist = webDistDir();
    if (!fs.existsSync(path.join(dist, 'index.html'))) {
      throw new Error(`No web build in ${dist}: run npm run build, or set E2E_WEB_DIST_DIR`);
    }
    // A prefix the app cannot have built in: it must show what the server says.
    const server = await startServer({ env: { VERSION_PREFIX: 'E2E Build' } });
    running.push(server);
    const info = (await (await fetch(`${server.baseUrl}/version.json`)).json()) as {
      version: string;
      prefix: string;
    };
    expect(info).toEqual({ version: PACKAGE_VERSION, prefix: 'E2E Build' });

    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const pageErrors: string[] = [];
      page.on('pageerror', (err) => pageErrors.push(err.message));
      const response = await page.goto(`${server.baseUrl}/`);
      expect(response?.status()).toBe(200);
      await page
        .getByText(`${info.prefix} ${info.version}`)
        .first()
        .waitFor({ state: 'visible', timeout: 30_000 });
      await screenshot(page, 'foundation-home');
      expect(pageErrors).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 120_000);
});
