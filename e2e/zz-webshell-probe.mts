import { startServer, launchBrowser, apiLogin, E2E_ADMIN } from './harness';
import { createAccount, newPage, storeSession, storedItems } from './webshell.helpers';
const server = await startServer();
const browser = await launchBrowser();
try {
  const admin = await apiLogin(server.baseUrl, E2E_ADMIN.email, E2E_ADMIN.password);
  const account = { email: 'refresh@e2e.example', password: 'refresh-password', displayName: 'Re Fresh' };
  await createAccount(server, admin.tokens.accessToken, account);
  const session = await apiLogin(server.baseUrl, account.email, account.password);
  for (let i = 0; i < 3; i++) {
    const { page, context } = await newPage(browser);
    const t0 = Date.now();
    page.on('request', (r) => (r.url().includes('/api/') || r.url().includes('/ws')) && console.log(Date.now() - t0, 'req', r.method(), r.url().replace(server.baseUrl, ''), (r.headers().authorization ?? '').slice(-8)));
    page.on('response', (r) => (r.url().includes('/api/') || r.url().includes('/ws')) && console.log(Date.now() - t0, 'resp', r.status(), r.url().replace(server.baseUrl, '')));
    page.on('websocket', (ws) => console.log('websocket', ws.url()));
    page.on('framenavigated', (f) => console.log('nav', f.url()));
    await storeSession(page, server, { ...session, tokens: { ...session.tokens, accessToken: 'garbage' } });
    await page.goto(`${server.baseUrl}/app`);
    await page.waitForTimeout(4000);
    console.log('----', page.url(), (await storedItems(page)).accessToken?.slice(-8));
    const fresh = await storedItems(page);
    session.tokens.refreshToken = fresh.refreshToken ?? session.tokens.refreshToken;
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
}
