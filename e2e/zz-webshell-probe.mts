import { startServer, launchBrowser, apiLogin, E2E_ADMIN } from './harness';
import { createAccount, newPage, storeSession } from './webshell.helpers';
const server = await startServer();
const browser = await launchBrowser();
try {
  const admin = await apiLogin(server.baseUrl, E2E_ADMIN.email, E2E_ADMIN.password);
  const account = { email: 'refresh@e2e.example', password: 'refresh-password', displayName: 'Re Fresh' };
  await createAccount(server, admin.tokens.accessToken, account);
  const session = await apiLogin(server.baseUrl, account.email, account.password);
  const { page } = await newPage(browser);
  await storeSession(page, server, session);
  await page.goto(`${server.baseUrl}/app/ideation-team`);
  await page.getByRole('button', { name: 'Notifications, 1 unread' }).waitFor();
  console.log(await page.evaluate(() => Array.from(document.querySelectorAll('.css-ffxcne')).map((e) => e.outerHTML.slice(0, 600))));
} finally {
  await browser.close();
  await server.stop();
}
