/**
 * A real SMTP server on loopback (nodemailer's `smtp-server`), for the tests and the newsletter
 * benchmark: it keeps every message it accepts (envelope and raw bytes), and can refuse some
 * recipients the way relays do (550 for good, 452 for now).
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface SinkMessage {
  from: string;
  to: string[];
  raw: Buffer;
  /** The Message-ID header, without angle brackets. */
  messageId: string;
}

export interface SmtpSink {
  url: string;
  port: number;
  messages: SinkMessage[];
  /** Messages accepted so far (kept even when `keep` is false). */
  readonly accepted: number;
  close(): Promise<void>;
}

export interface SinkOptions {
  /** An SMTP answer for a recipient it refuses, e.g. `{ code: 550, message: '5.1.1 Unknown user' }`. */
  refuse?: (recipient: string) => { code: number; message: string } | null;
  /** Keep the raw messages (false in the benchmark: it only counts, by recipient and Message-ID). */
  keep?: boolean;
  /** Called for each message accepted, with its recipient and Message-ID. */
  onMessage?: (to: string, messageId: string) => void;
}

export async function startSmtpSink(options: SinkOptions = {}): Promise<SmtpSink> {
  const messages: SinkMessage[] = [];
  let accepted = 0;
  const keep = options.keep ?? true;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 10 * 1024 * 1024,
    onRcptTo(address, _session, callback) {
      const refusal = options.refuse?.(address.address.toLowerCase());
      if (!refusal) return callback();
      const error = new Error(refusal.message) as Error & { responseCode: number };
      error.responseCode = refusal.code;
      callback(error);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        const head = raw.subarray(0, Math.min(raw.length, 8192)).toString('latin1');
        const messageId = /^Message-ID:\s*<([^>]+)>/im.exec(head)?.[1] ?? '';
        const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
        accepted += 1;
        for (const address of to) options.onMessage?.(address, messageId);
        if (keep) messages.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to, raw, messageId });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  // A client that goes away mid-message (a server killed by the benchmark) resets its connection:
  // that message is simply not accepted, and the sink goes on.
  server.on('error', () => {});
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    get accepted() {
      return accepted;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
