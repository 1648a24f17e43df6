// Temporary screenshot script (web-shell helper); deleted when done.
import { startServer, launchBrowser, apiLogin, E2E_ADMIN, seriousA11yViolations } from './harness';

const server = await startServer();
const browser = await launchBrowser();
const out = '/tmp/webshell-shots';
try {
  const auth = await apiLogin(server.baseUrl, E2E_ADMIN.email, E2E_ADMIN.password);
  for (const [w, h] of [
    [390, 844],
    [1440, 900],
  ] as const) {
    const ctx = await browser.newContext({ viewport: { width: w, height: h }, bypassCSP: true });
    const page = await ctx.newPage();
    page.on('console', (m) => m.type() === 'error' && console.log('console:', m.text()));
    for (const path of ['/', '/login', '/register', '/join-team', '/demo']) {
      await page.goto(server.baseUrl + path);
      await page.waitForLoadState('networkidle');
      await page.screenshot({
        path: `${out}/${w}${path.replace(/\//g, '_') || '_'}.png`,
        fullPage: true,
      });
      console.log(w, path, JSON.stringify(await seriousA11yViolations(page)));
    }
    await page.evaluate((a) => {
      localStorage.setItem('accessToken', a.tokens.accessToken);
      localStorage.setItem('refreshToken', a.tokens.refreshToken);
      localStorage.setItem('isAuthenticated', 'true');
      localStorage.setItem('user', JSON.stringify(a.user));
    }, auth);
    for (const path of ['/app', '/admin', '/app/ideation-team']) {
      await page.goto(server.baseUrl + path);
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(500);
      await page.screenshot({ path: `${out}/${w}${path.replace(/\//g, '_')}.png` });
      console.log(w, path, JSON.stringify(await seriousA11yViolations(page)));
    }
    if (w < 500) {
      await page.goto(server.baseUrl + '/app/project-manager');
      await page.getByRole('button', { name: 'Open navigation' }).click();
      await page.waitForTimeout(600);
      await page.screenshot({ path: `${out}/${w}_drawer.png` });
      console.log('drawer', JSON.stringify(await seriousA11yViolations(page)));
    } else {
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.goto(server.baseUrl + '/admin');
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: `${out}/${w}_admin_dark.png` });
      console.log('dark', JSON.stringify(await seriousA11yViolations(page)));
      await page.goto(server.baseUrl + '/');
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: `${out}/${w}_landing_dark.png`, fullPage: true });
      console.log('dark landing', JSON.stringify(await seriousA11yViolations(page)));
    }
    await ctx.close();
  }
} finally {
  await browser.close();
  await server.stop();
}
