import net, { type AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, bearer, createTestApp, login, type TestApp } from '../../../test/app';
import { emailOutbox, users } from '../../db/schema';

/**
 * The approval e-mail over real SMTP: a server from the smtp-server package listens on
 * 127.0.0.1 and records every message it receives.
 */
interface Received {
  from: string;
  to: string[];
  raw: string;
}

let smtp: SMTPServer;
let port: number;
const received: Received[] = [];

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  port = (smtp.server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

/** Header value (unfolded) and decoded text body of a simple text/plain message. */
function parse(raw: string) {
  const [head, ...rest] = raw.split('\r\n\r\n');
  const headers = new Map<string, string>();
  for (const line of head!.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const i = line.indexOf(':');
    headers.set(line.slice(0, i).toLowerCase(), line.slice(i + 1).trim());
  }
  let body = rest.join('\r\n\r\n');
  if (/quoted-printable/i.test(headers.get('content-transfer-encoding') ?? '')) {
    body = body
      .replace(/=\r\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  }
  return { headers, body: body.replace(/\r\n/g, '\n') };
}

/** A port nothing listens on: bound once, then released. */
function deadPort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port: p } = srv.address() as AddressInfo;
      srv.close(() => resolve(p));
    });
  });
}

async function registerAndApprove(t: TestApp, email: string, displayName: string) {
  const reg = await t.app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { email, password: 'smtp-user-password', displayName },
  });
  expect(reg.statusCode).toBe(201);
  const [row] = await t.ctx.db.select().from(users).where(eq(users.email, email));
  const admin = await login(t.app, ADMIN.email, ADMIN.password);
  const res = await t.app.inject({
    method: 'PUT',
    url: `/api/auth/users/${row!.id}/status`,
    headers: bearer(admin.accessToken),
    payload: { status: 'approved' },
  });
  return { id: row!.id, res };
}

describe('approval e-mail over SMTP', () => {
  it('delivers the approval message through SMTP_URL with MAIL_FROM', async () => {
    const t = await createTestApp({
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      MAIL_FROM: 'EconAgents Test <robot@econagents.test>',
      PUBLIC_URL: 'http://localhost:5173',
    });
    try {
      const { res } = await registerAndApprove(t, 'milton@uni.example', 'Milton Friedman');
      expect(res.statusCode).toBe(200);
      expect(received).toHaveLength(1);
      const mail = received[0]!;
      expect(mail.to).toEqual(['milton@uni.example']);
      expect(mail.from).toBe('robot@econagents.test');
      const { headers, body } = parse(mail.raw);
      expect(headers.get('to')).toBe('milton@uni.example');
      expect(headers.get('from')).toBe('EconAgents Test <robot@econagents.test>');
      expect(headers.get('subject')).toBe('Your EconAgents account has been approved');
      expect(body).toContain('Hello Milton Friedman');
      expect(body).toMatch(/you can now sign in/i);
      expect(body).toContain('http://localhost:5173/login');

      const [row] = await t.ctx.db
        .select()
        .from(emailOutbox)
        .where(eq(emailOutbox.to, 'milton@uni.example'));
      expect(row).toMatchObject({ status: 'sent', error: null });
      expect(row!.sentAt).toBeInstanceOf(Date);
    } finally {
      await t.close();
    }
  });

  it('still approves when the mail server is down, and keeps the message as failed', async () => {
    const t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${await deadPort()}` });
    try {
      const { res } = await registerAndApprove(t, 'anna@uni.example', 'Anna Schwartz');
      expect(res.statusCode).toBe(200);
      expect(res.json().data.user.status).toBe('approved');
      const [row] = await t.ctx.db
        .select()
        .from(emailOutbox)
        .where(eq(emailOutbox.to, 'anna@uni.example'));
      expect(row!.status).toBe('failed');
      expect(row!.error).toMatch(/ECONNREFUSED|connect/i);
      expect(row!.text).toMatch(/sign in/i);
    } finally {
      await t.close();
    }
  });
});
