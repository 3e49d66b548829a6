// Outgoing mail behind a small port: an SMTP server the operator names (SMTP_URL, through
// nodemailer), or a memory outbox (what a process without SMTP_URL keeps: nothing leaves it).
import nodemailer, { type Transporter } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers (List-Unsubscribe). */
  headers?: Record<string, string>;
}

export interface MailSender {
  /** Resolves once the server accepted the message; rejects when it did not. */
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** Sends through the SMTP server at `url` (smtp:// or smtps://, credentials and options in the URL). */
export class SmtpMailSender implements MailSender {
  private readonly transport: Transporter;

  constructor(
    url: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport(url);
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({ from: this.from, ...message });
  }

  close(): void {
    this.transport.close();
  }
}

/** Keeps what it is given (tests of code that mails, and a process without a mail server). */
export class MemoryMailSender implements MailSender {
  readonly sent: MailMessage[] = [];

  send(message: MailMessage): Promise<void> {
    this.sent.push(message);
    return Promise.resolve();
  }

  close(): void {}
}
