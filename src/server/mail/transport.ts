/**
 * Mail transport: one interface, two adapters chosen from the configuration.
 *
 * - `outbox` (the default): the complete RFC 822 message is written as an `.eml` file in a
 *   folder. Nothing leaves the machine; tests and developers read the files
 *   (tests/helpers/outbox.ts).
 * - `smtp` (when SMTP_URL is set): the message is handed to the SMTP relay.
 *
 * `send` resolves once the message is SUBMITTED: written to the outbox, or accepted by the
 * relay. That is not DELIVERED: the relay may still bounce it, the mailbox may file it as spam.
 * Callers must not tell the reader "we have delivered" — only "we have sent".
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import { systemClock, type Clock } from '../core/clock';
import { config, type Config } from '../core/config';
import { log } from '../core/log';

export interface OutgoingMail {
  /** One recipient address. */
  to: string;
  subject: string;
  text: string;
  html: string;
  replyTo?: string;
  headers?: Record<string, string>;
  /** Template name, for the log line only; it is not written into the message. */
  template?: string;
  /** Files attached (a gift card): composed by the domain's own job, never carried in a job's payload. */
  attachments?: { filename: string; contentType: string; content: Uint8Array }[];
  /** Another sender than the configured one (the newsletters' list address). */
  from?: string;
  /**
   * The message's identity, fixed by the caller before the first attempt (a newsletter delivery):
   * a resubmission after a crash carries the same Message-ID, which mailbox providers use to drop
   * duplicates, and the outbox writes the same file again instead of a second one.
   */
  identity?: { messageId: string; outboxName: string };
}

/** What a transport reports once it has taken a message: submitted, not delivered. */
export interface SubmittedMail {
  /** Message-ID header of the submitted message. */
  messageId: string;
  /** Outbox transport only: absolute path of the written .eml file. */
  file?: string;
}

export interface Mailer {
  /**
   * Submits one message: resolves once it is written to the outbox or accepted by the SMTP
   * relay, rejects otherwise. Delivery to the mailbox is neither awaited nor guaranteed.
   */
  send(mail: OutgoingMail): Promise<SubmittedMail>;
  /** Closes a pool's open connections (a pooled mailer's; nothing otherwise). */
  close?(): void;
}

export interface MailerOptions {
  /** Date of the message and of the outbox file name. */
  clock?: Clock;
  /** A pool of SMTP connections kept open (the newsletters' bulk sending); one connection per message otherwise. */
  pool?: { maxConnections: number };
}

const HEADER_NAME = /^[A-Za-z0-9-]+$/;
const LINE_BREAK = /[\r\n]/;

/** Refuses values that could smuggle extra headers or recipients into the message. */
function assertSafe(mail: OutgoingMail): void {
  if (LINE_BREAK.test(mail.to) || !mail.to.includes('@') || mail.to.includes(',')) throw new Error('mail: invalid recipient');
  if (mail.from !== undefined && LINE_BREAK.test(mail.from)) throw new Error('mail: invalid From');
  if (mail.identity && (!/^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+$/.test(mail.identity.messageId) || !/^[A-Za-z0-9._-]{1,120}$/.test(mail.identity.outboxName)))
    throw new Error('mail: invalid identity');
  if (mail.replyTo !== undefined && (LINE_BREAK.test(mail.replyTo) || !mail.replyTo.includes('@'))) throw new Error('mail: invalid Reply-To');
  for (const [name, value] of Object.entries(mail.headers ?? {})) {
    if (!HEADER_NAME.test(name) || LINE_BREAK.test(value)) throw new Error(`mail: invalid header ${JSON.stringify(name)}`);
  }
}

/** Only the domain of an address: enough to diagnose a provider problem, not enough to identify a reader. */
export function recipientDomain(address: string): string {
  const at = address.lastIndexOf('@');
  return at < 0
    ? '?'
    : address
        .slice(at + 1)
        .replace(/[>\s].*$/, '')
        .toLowerCase();
}

function toNodemailer(mail: OutgoingMail, from: string, date: Date, returnPath: string | undefined): SendMailOptions {
  return {
    from: mail.from ?? from,
    ...(returnPath ? { envelope: { from: returnPath, to: mail.to } } : {}),
    ...(mail.identity ? { messageId: `<${mail.identity.messageId}>` } : {}),
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    date,
    // Base64 bodies: line lengths stay within RFC 5322 limits whatever the content, and the
    // test helper can decode them without a quoted-printable parser.
    textEncoding: 'base64',
    ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
    ...(mail.headers ? { headers: mail.headers } : {}),
    ...(mail.attachments?.length
      ? { attachments: mail.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: Buffer.from(a.content) })) }
      : {}),
  };
}

/** `2026-11-21T10-00-00.000Z-3f9a…` — sorts by time, valid on every file system (no ':'). */
/**
 * The time at the head of an outbox file's name: the files sort in the order mails were written,
 * whatever wrote them (a newsletter's files carry the time its send started, fixed, so that a
 * resubmission writes the same file again).
 */
export const outboxStamp = (date: Date): string => date.toISOString().replaceAll(':', '-');

function outboxFileStem(date: Date): string {
  return `${outboxStamp(date)}-${randomBytes(8).toString('hex')}`;
}

/**
 * Writes the file under a temporary name, flushes it, then renames it: a reader sees either
 * nothing or the whole message, and a process killed midway leaves only a `.tmp` file, which
 * readers and backups ignore and the next server start removes (outbox.ts). The outbox holds
 * live login links, so files are readable by their owner only.
 */
async function writeAtomically(dir: string, stem: string, content: Buffer): Promise<string> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, `${stem}.eml`);
  // A name of its own per attempt: a resubmission of a named message must not trip on the
  // leftover of an attempt killed midway.
  const tmp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const handle = await open(tmp, 'wx', 0o600);
    try {
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, file);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
  return file;
}

function errorFields(error: unknown): Record<string, unknown> {
  // The message of an SMTP error may quote the recipient's address: log its kind only.
  if (!(error instanceof Error)) return { error: 'unknown' };
  const { code, responseCode } = error as Error & { code?: unknown; responseCode?: unknown };
  return { error: error.name, ...(code !== undefined ? { code } : {}), ...(responseCode !== undefined ? { responseCode } : {}) };
}

export function createMailer(mail: Config['mail'], options: MailerOptions = {}): Mailer {
  const clock = options.clock ?? systemClock;
  const kind = mail.transport.kind;

  let closePool: (() => void) | undefined;
  const submit: (message: OutgoingMail, date: Date) => Promise<SubmittedMail> =
    mail.transport.kind === 'outbox'
      ? (() => {
          const dir = mail.transport.dir;
          const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix', ...(mail.dkim ? { dkim: mail.dkim } : {}) });
          return async (message, date) => {
            const info = await transporter.sendMail(toNodemailer(message, mail.from, date, mail.returnPath));
            if (!Buffer.isBuffer(info.message)) throw new Error('mail: the stream transport did not return a buffer');
            // A message with an identity always lands in the same file: a resubmission replaces it.
            const file = await writeAtomically(dir, message.identity?.outboxName ?? outboxFileStem(date), info.message);
            return { messageId: info.messageId, file };
          };
        })()
      : (() => {
          const url = mail.transport.url;
          const transporter = options.pool
            ? nodemailer.createTransport({
                url,
                pool: true,
                maxConnections: options.pool.maxConnections,
                maxMessages: 500,
                ...(mail.dkim ? { dkim: mail.dkim } : {}),
              } as Parameters<typeof nodemailer.createTransport>[0])
            : nodemailer.createTransport(url, mail.dkim ? { dkim: mail.dkim } : {});
          if (options.pool) closePool = () => transporter.close();
          return async (message, date) => {
            const info = await transporter.sendMail(toNodemailer(message, mail.from, date, mail.returnPath));
            return { messageId: info.messageId };
          };
        })();

  return {
    close: () => closePool?.(),
    async send(message) {
      assertSafe(message);
      const fields = { template: message.template ?? 'unknown', recipientDomain: recipientDomain(message.to), transport: kind };
      try {
        const submitted = await submit(message, clock.now());
        // Bulk messages (a newsletter's deliveries) are logged per batch by their sender, not one line each.
        if (!message.identity)
          log.info('mail submitted', { ...fields, messageId: submitted.messageId, ...(submitted.file ? { file: basename(submitted.file) } : {}) });
        return submitted;
      } catch (error) {
        log.error('mail submission failed', { ...fields, ...errorFields(error) });
        throw error;
      }
    },
  };
}

let instance: Mailer | undefined;

/** The process's mailer, built once from `config().mail`. */
export function getMailer(): Mailer {
  instance ??= createMailer(config().mail);
  return instance;
}

let bulk: Mailer | undefined;

/**
 * The newsletters' mailer: the newsletters' sender, and a pool of SMTP connections kept open
 * (NEWSLETTER_SMTP_CONNECTIONS) when a relay is configured; the outbox otherwise.
 */
export function getBulkMailer(): Mailer {
  const { mail, newsletter } = config();
  bulk ??= createMailer({ ...mail, from: newsletter.from }, { pool: { maxConnections: newsletter.connections } });
  return bulk;
}

/** Closes the newsletters' pool, if it was opened. */
export function closeBulkMailer(): void {
  bulk?.close?.();
  bulk = undefined;
}
