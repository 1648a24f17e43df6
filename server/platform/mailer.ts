import { eq } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/connect';
import { emailOutbox } from '../db/schema';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /** Records the message in the outbox and delivers it by SMTP when configured. Never throws. */
  send(message: MailMessage): Promise<{ id: string; status: 'stored' | 'sent' | 'failed' }>;
  readonly smtpConfigured: boolean;
}

export function createMailer(opts: {
  db: Database;
  smtpUrl: string | undefined;
  from: string;
  log: FastifyBaseLogger;
}): Mailer {
  // nodemailer waits up to 2 minutes for a connection and 10 for a quiet socket by default; an
  // approval click must not hang that long on a dead mail server. Parameters in SMTP_URL's
  // query (?connectionTimeout=...) still take precedence.
  const transport = opts.smtpUrl
    ? nodemailer.createTransport({
        url: opts.smtpUrl,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
      })
    : undefined;
  return {
    smtpConfigured: transport !== undefined,
    async send(message) {
      const [row] = await opts.db
        .insert(emailOutbox)
        .values({ to: message.to, subject: message.subject, text: message.text })
        .returning({ id: emailOutbox.id });
      const id = row!.id;
      if (!transport) {
        opts.log.info(
          { outboxId: id, to: message.to, subject: message.subject },
          `E-mail stored in the outbox (SMTP_URL is not set):\n${message.text}`,
        );
        return { id, status: 'stored' };
      }
      try {
        await transport.sendMail({
          from: opts.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
        });
        await opts.db
          .update(emailOutbox)
          .set({ status: 'sent', sentAt: new Date() })
          .where(eq(emailOutbox.id, id));
        return { id, status: 'sent' };
      } catch (err) {
        const error = err instanceof Error ? err.message : String(err);
        opts.log.warn(
          { outboxId: id, to: message.to, error },
          'E-mail delivery failed; kept in the outbox',
        );
        await opts.db
          .update(emailOutbox)
          .set({ status: 'failed', error })
          .where(eq(emailOutbox.id, id));
        return { id, status: 'failed' };
      }
    },
  };
}
