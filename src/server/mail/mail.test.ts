import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { latestMailTo, linksIn, parseEml, readOutbox } from '../../../tests/helpers/outbox';
import { fakeClock } from '../core/clock';
import type { Config } from '../core/config';
import { log } from '../core/log';
// The shared layout is tested through every domain's templates.
import { accountDeletedMail } from '../account/mails';
import { emailChangeConfirmMail, emailChangedMail, emailChangeNoticeMail, magicLinkMail, passwordChangedMail, passwordResetMail } from '../auth/mails';
import { contactAckMail, contactNewsroomMail } from '../contact/mails';
import { newsletterConfirmMail, newsletterHeaders, newsletterWelcomeMail } from '../newsletter/mails';
import { addressTo, mailFor, type MailContent } from './layout';
import { createMailer, type Mailer } from './transport';

const siteUrl = new URL('https://journal.contrechamp.test');
const SITE = 'https://journal.contrechamp.test/';
const FROM = 'Contrechamp <ne-pas-repondre@contrechamp.media>';

let dir: string;
let mailer: Mailer;

function mailConfig(outbox: string): Config['mail'] {
  return { from: FROM, newsroom: 'redaction@contrechamp.media', transport: { kind: 'outbox', dir: outbox } };
}

beforeEach(async () => {
  dir = join(await mkdtemp(join(tmpdir(), 'contrechamp-mail-')), 'outbox'); // not created yet: the mailer creates it
  mailer = createMailer(mailConfig(dir));
  vi.spyOn(log, 'info').mockImplementation(() => {});
  vi.spyOn(log, 'error').mockImplementation(() => {});
});

afterEach(async () => {
  vi.restoreAllMocks();
  await rm(join(dir, '..'), { recursive: true, force: true });
});

/** One sample of every template, with the paths its links must point to. */
const samples: Array<{ mail: MailContent; paths: string[] }> = [
  { mail: magicLinkMail({ siteUrl, token: 'tok_EN-123' }), paths: ['/welcome/tok_EN-123'] },
  { mail: passwordResetMail({ siteUrl, token: 'reset_tok' }), paths: ['/modifier-mon-mot-de-passe/reset_tok'] },
  { mail: emailChangeConfirmMail({ siteUrl, token: 'chg_tok', newEmail: 'nouvelle@exemple.fr' }), paths: ['/modifier-mon-email/chg_tok'] },
  { mail: emailChangeNoticeMail({ siteUrl, newEmail: 'nouvelle@exemple.fr' }), paths: ['/modifier-mon-mot-de-passe', '/contact'] },
  { mail: emailChangedMail({ siteUrl, newEmail: 'nouvelle@exemple.fr' }), paths: ['/contact'] },
  { mail: passwordChangedMail({ siteUrl }), paths: ['/modifier-mon-mot-de-passe', '/contact'] },
  { mail: accountDeletedMail({ siteUrl }), paths: ['/contact'] },
  {
    mail: newsletterConfirmMail({ siteUrl, token: 'nl_tok', unsubscribeToken: 'unsub_tok', newsletters: ['L’Hebdo', 'Les Émissions'] }),
    paths: ['/mailinglist/confirm?token=nl_tok', '/mailinglist/unsubscribe?token=unsub_tok', '/mailinglist/preferences?token=unsub_tok'],
  },
  {
    mail: newsletterWelcomeMail({ siteUrl, unsubscribeToken: 'unsub_tok', newsletters: ['L’Hebdo'] }),
    paths: ['/mailinglist/unsubscribe?token=unsub_tok', '/mailinglist/preferences?token=unsub_tok'],
  },
  {
    mail: contactNewsroomMail({
      siteUrl,
      name: 'Léa Moreau',
      email: 'lea@exemple.fr',
      subject: 'Une correction',
      message: 'Bonjour,\nune coquille dans votre article.',
    }),
    paths: ['/'],
  },
  { mail: contactAckMail({ siteUrl, name: 'Léa Moreau' }), paths: ['/faq'] },
];

describe('outbox transport', () => {
  it('writes one complete .eml per message, with French headers and both parts intact', async () => {
    const subject = 'Votre lien de connexion à Contrechamp — « Élysée » : ça marche très bien, même quand le sujet est long';
    const submitted = await mailer.send({ to: 'lea.dupont@exemple.fr', subject, text: 'Bonjour Léa,\nvoici l’été.', html: '<p>Bonjour Léa, voici l’été.</p>' });

    const files = await readdir(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z-[0-9a-f]+\.eml$/);
    expect(submitted.file).toBe(join(dir, files[0] ?? ''));
    const raw = await readFile(submitted.file ?? '', 'utf8');
    expect(raw).toMatch(/--\n?$/); // closing MIME delimiter: the file is whole
    expect(raw).not.toContain('\r\n');

    const [message] = await readOutbox(dir);
    expect(message?.from).toBe(FROM);
    expect(message?.to).toBe('lea.dupont@exemple.fr');
    expect(message?.subject).toBe(subject);
    expect(message?.text).toBe('Bonjour Léa,\nvoici l’été.');
    expect(message?.html).toBe('<p>Bonjour Léa, voici l’été.</p>');
    expect(message?.headers['message-id']).toBe(submitted.messageId);
    expect(message?.headers['content-type']).toMatch(/^multipart\/alternative/);
  });

  it('sends every template through the outbox, readable back with the same subject, text and html', async () => {
    for (const [i, { mail }] of samples.entries()) await mailer.send({ to: `lecteur${i}@exemple.fr`, ...mail });
    const messages = await readOutbox(dir);
    expect(messages).toHaveLength(samples.length);
    for (const [i, { mail }] of samples.entries()) {
      const message = messages.find((m) => m.to === `lecteur${i}@exemple.fr`);
      expect(message?.subject, mail.template).toBe(mail.subject);
      expect(message?.text).toBe(mail.text);
      expect(message?.html).toBe(mail.html);
    }
  });

  it('leaves no temporary file behind, and concurrent sends produce distinct files', async () => {
    const recipients = Array.from({ length: 25 }, (_, i) => `abonne${i}@exemple.fr`);
    const results = await Promise.all(recipients.map((to) => mailer.send({ to, ...magicLinkMail({ siteUrl, token: `t${to}` }) })));

    expect(new Set(results.map((r) => r.file)).size).toBe(recipients.length);
    expect(new Set(results.map((r) => r.messageId)).size).toBe(recipients.length);
    const files = await readdir(dir);
    expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(files.filter((f) => f.endsWith('.eml'))).toHaveLength(recipients.length);
    const messages = await readOutbox(dir);
    expect(messages.map((m) => m.to).sort()).toEqual([...recipients].sort());
  });

  it('names files by the clock and keeps them in time order', async () => {
    const clock = fakeClock(new Date('2026-11-21T10:00:00.000Z'));
    const timed = createMailer(mailConfig(dir), { clock });
    await timed.send({ to: 'a@exemple.fr', subject: 'Premier', text: '1', html: '<p>1</p>' });
    clock.advance(1500);
    await timed.send({ to: 'a@exemple.fr', subject: 'Second', text: '2', html: '<p>2</p>' });

    const messages = await readOutbox(dir);
    expect(messages.map((m) => m.subject)).toEqual(['Premier', 'Second']);
    expect(messages[0]?.file).toContain('2026-11-21T10-00-00.000Z-');
    expect(messages[1]?.date.toISOString()).toBe('2026-11-21T10:00:01.500Z');
    expect((await latestMailTo(dir, 'A@exemple.fr')).subject).toBe('Second');
    await expect(latestMailTo(dir, 'a@exemple.fr', { after: new Date('2026-11-21T10:00:02Z'), timeoutMs: 150 })).rejects.toThrow(/No mail to a@exemple.fr/);
  });

  it('lets a test wait for a mail that arrives later', async () => {
    const waiting = latestMailTo(dir, 'tardif@exemple.fr', { after: new Date(Date.now() - 1), timeoutMs: 5000, intervalMs: 20 });
    setTimeout(() => void mailer.send({ to: 'tardif@exemple.fr', ...passwordResetMail({ siteUrl, token: 'late' }) }), 100);
    const message = await waiting;
    expect(linksIn(message.text)).toContain(`${SITE}modifier-mon-mot-de-passe/late`);
  });

  it('carries Reply-To and custom headers, and refuses header injection', async () => {
    const mail = contactNewsroomMail({ siteUrl, name: 'Léa', email: 'lea@exemple.fr', subject: 'Bonjour', message: 'Un message assez long.' });
    await mailer.send({ to: 'redaction@contrechamp.media', ...mail });
    const [message] = await readOutbox(dir);
    expect(message?.headers['reply-to']).toBe('lea@exemple.fr');

    await expect(mailer.send({ to: 'a@exemple.fr\nBcc: victime@exemple.fr', subject: 'x', text: 'x', html: 'x' })).rejects.toThrow(/recipient/);
    await expect(mailer.send({ to: 'a@exemple.fr, b@exemple.fr', subject: 'x', text: 'x', html: 'x' })).rejects.toThrow(/recipient/);
    await expect(mailer.send({ to: 'a@exemple.fr', replyTo: 'x@y.fr\r\nBcc: z@y.fr', subject: 'x', text: 'x', html: 'x' })).rejects.toThrow(/Reply-To/);
    await expect(mailer.send({ to: 'a@exemple.fr', subject: 'x', text: 'x', html: 'x', headers: { 'X-A': 'b\nBcc: c@d.fr' } })).rejects.toThrow(/header/);
    expect(await readOutbox(dir)).toHaveLength(1);
  });

  it('logs one line per message with the recipient domain and template, never the address, token or body', async () => {
    const info = vi.mocked(log.info);
    await mailer.send({ to: 'Lea.Dupont@Exemple.FR', ...magicLinkMail({ siteUrl, token: 'SECRET_TOKEN_123' }) });
    expect(info).toHaveBeenCalledTimes(1);
    const [msg, fields] = info.mock.calls[0] ?? [];
    expect(msg).toBe('mail submitted');
    expect(fields).toMatchObject({ template: 'magic-link', recipientDomain: 'exemple.fr', transport: 'outbox' });
    const logged = JSON.stringify(info.mock.calls);
    expect(logged).not.toMatch(/lea\.dupont/i);
    expect(logged).not.toContain('SECRET_TOKEN_123');
    expect(logged).not.toContain('Bonjour');
  });

  it('reports a failed write and logs it without the address', async () => {
    await writeFile(join(dir, '..', 'not-a-dir'), 'x');
    const broken = createMailer(mailConfig(join(dir, '..', 'not-a-dir', 'outbox')));
    await expect(broken.send({ to: 'lea@exemple.fr', subject: 'x', text: 'x', html: 'x' })).rejects.toThrow();
    const logged = JSON.stringify(vi.mocked(log.error).mock.calls);
    expect(logged).toContain('mail submission failed');
    expect(logged).not.toContain('lea@');
  });
});

/** A minimal SMTP server that accepts everything and keeps the DATA it receives. */
async function fakeSmtp(): Promise<{ url: string; received: string[]; close: () => Promise<void> }> {
  const received: string[] = [];
  const server = createServer((socket) => {
    let buffer = '';
    let inData = false;
    socket.write('220 fake ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          received.push(buffer.slice(0, end));
          buffer = buffer.slice(end + 5);
          inData = false;
          socket.write('250 2.0.0 queued\r\n');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffer.slice(0, eol).toUpperCase();
        buffer = buffer.slice(eol + 2);
        if (line.startsWith('EHLO')) socket.write('250-fake\r\n250 8BITMIME\r\n');
        else if (line.startsWith('DATA')) {
          inData = true;
          socket.write('354 go ahead\r\n');
        } else if (line.startsWith('QUIT')) socket.end('221 bye\r\n');
        else socket.write('250 OK\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('smtp transport', () => {
  it('submits the same message to the relay', async () => {
    const smtp = await fakeSmtp();
    try {
      const relay = createMailer({ from: FROM, newsroom: 'redaction@contrechamp.media', transport: { kind: 'smtp', url: smtp.url } });
      const submitted = await relay.send({ to: 'lea@exemple.fr', ...magicLinkMail({ siteUrl, token: 'via_smtp' }) });
      expect(submitted.file).toBeUndefined();
      expect(smtp.received).toHaveLength(1);
      const message = parseEml(smtp.received[0] ?? '');
      expect(message.headers['message-id']).toBe(submitted.messageId);
      expect(message.subject).toBe('Votre lien de connexion à Contrechamp');
      expect(linksIn(message.text)).toContain(`${SITE}welcome/via_smtp`);
      expect(vi.mocked(log.info).mock.calls[0]?.[1]).toMatchObject({ transport: 'smtp', recipientDomain: 'exemple.fr' });
    } finally {
      await smtp.close();
    }
  });

  it('rejects when the relay cannot be reached, and says so in the logs', async () => {
    const smtp = await fakeSmtp();
    const url = smtp.url;
    await smtp.close(); // nothing listens on that port any more
    const relay = createMailer({ from: FROM, newsroom: 'redaction@contrechamp.media', transport: { kind: 'smtp', url } });
    await expect(relay.send({ to: 'lea@exemple.fr', subject: 'x', text: 'x', html: 'x' })).rejects.toThrow();
    expect(vi.mocked(log.error).mock.calls[0]?.[1]).toMatchObject({ transport: 'smtp', code: 'ESOCKET' });
  });
});

describe('templates', () => {
  it.each(samples.map((s) => [s.mail.template, s] as const))(
    '%s: French subject, text and HTML, links only on the configured site',
    (_name, { mail, paths }) => {
      expect(mail.subject.length).toBeGreaterThan(5);
      expect(mail.html).toMatch(/^<!doctype html>\n<html lang="fr"/);
      expect(mail.html).toContain('#0b7a4b');
      for (const body of [mail.text, mail.html]) {
        // The publisher's legal identity (src/config/publisher.ts) signs every mail.
        expect(body).toContain('Contrechamp SCIC SAS à capital variable, 12 rue des Coopérateurs, 93100 Montreuil — SIREN 912 345 678');
        expect(body).toMatch(/Vous recevez ce|Message envoyé depuis/);
        const links = linksIn(body);
        expect(links.length).toBeGreaterThan(0);
        for (const link of links) expect(link.startsWith(SITE), link).toBe(true);
        for (const path of paths) expect(links).toContain(new URL(path, SITE).href);
      }
      // Natural French: typographic apostrophes only, in everything the template itself writes.
      expect(mail.text).not.toContain("'");
      expect(mail.subject).not.toContain("'");
    },
  );

  it('greets an account by its first name, in both parts, escaped, and only once', () => {
    const mail = accountDeletedMail({ siteUrl });
    expect(mail.text).toContain('\n\nBonjour,\n\n');
    const greeted = mailFor({ email: 'camille@exemple.fr', givenName: 'Camille' }, mail);
    expect(greeted.to).toBe('camille@exemple.fr');
    expect(greeted.mail.text).toContain('\n\nBonjour Camille,\n\n');
    expect(greeted.mail.text).not.toContain('Bonjour,');
    expect(greeted.mail.html).toContain('>Bonjour Camille,</p>');
    expect(greeted.mail.html).not.toContain('>Bonjour,</p>');
    expect(greeted.mail.subject).toBe(mail.subject);
    // A name is text, never markup; a mail with no first name is left as it was.
    const hostile = addressTo(mail, '<img src=x onerror=alert(1)>');
    expect(hostile.html).toContain('Bonjour &lt;img src=x onerror=alert(1)&gt;,');
    expect(addressTo(mail, '  ')).toBe(mail);
    expect(addressTo(mail, null)).toBe(mail);
    // A mail that greets no one (a message to the newsroom) is not touched.
    const newsroom = contactNewsroomMail({ siteUrl, name: 'Camille', email: 'camille@exemple.fr', subject: 'Bonjour,', message: 'Bonjour,\n\nUn mot.' });
    expect(addressTo(newsroom, 'Camille')).toBe(newsroom);
  });

  it('says how long each link lasts', () => {
    expect(magicLinkMail({ siteUrl, token: 't' }).text).toMatch(/15 minutes[\s\S]*une seule fois[\s\S]*ignorez/);
    expect(passwordResetMail({ siteUrl, token: 't' }).text).toContain('valable une heure');
    expect(emailChangeConfirmMail({ siteUrl, token: 't', newEmail: 'n@exemple.fr' }).text).toContain('24 heures');
    expect(emailChangeNoticeMail({ siteUrl, newEmail: 'nouvelle@exemple.fr' }).text).toContain('nouvelle@exemple.fr');
    expect(emailChangedMail({ siteUrl, newEmail: 'nouvelle@exemple.fr' }).html).toContain('<strong>nouvelle@exemple.fr</strong>');
  });

  it('builds links from the site URL whatever the token holds', () => {
    const mail = magicLinkMail({ siteUrl: new URL('http://localhost:4321'), token: 'a/b?c#d' });
    expect(linksIn(mail.text)).toContain('http://localhost:4321/welcome/a%2Fb%3Fc%23d');
    const other = passwordResetMail({ siteUrl: new URL('https://autre.example'), token: '../../evil.example' });
    expect(linksIn(other.text).every((l) => l.startsWith('https://autre.example/'))).toBe(true);
    expect(other.text).toContain('https://autre.example/modifier-mon-mot-de-passe/..%2F..%2Fevil.example');
  });

  it('escapes hostile values in HTML and keeps the text as written', () => {
    const hostile = '<script>alert("x")</script>';
    const message = 'Ligne 1 <img src=x onerror=alert(1)>\n\n  Ligne 3 & « fin »';
    const mail = contactNewsroomMail({ siteUrl, name: hostile, email: 'lea@exemple.fr', subject: `Sujet ${hostile}\r\nBcc: x@y.fr`, message });

    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(mail.html).toContain('Ligne 1 &lt;img src=x onerror=alert(1)&gt;\n\n  Ligne 3 &amp; « fin »');
    expect(mail.text).toContain(message);
    expect(mail.replyTo).toBe('lea@exemple.fr');
    expect(mail.subject).not.toMatch(/[\r\n]/);

    for (const other of [
      emailChangeConfirmMail({ siteUrl, token: 't', newEmail: `"><script>@exemple.fr` }),
      emailChangeNoticeMail({ siteUrl, newEmail: `<b onmouseover=x>@exemple.fr` }),
      emailChangedMail({ siteUrl, newEmail: `<script>@exemple.fr` }),
      contactAckMail({ siteUrl, name: hostile }),
    ]) {
      expect(other.html).not.toMatch(/<script|<b |"><script/);
    }
  });

  it('newsletter mails carry the unsubscribe link and the RFC 8058 headers', async () => {
    const headers = newsletterHeaders(siteUrl, 'unsub_tok');
    expect(headers).toEqual({
      'List-Unsubscribe': `<${SITE}api/mailinglist/unsubscribe?token=unsub_tok>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    const confirm = newsletterConfirmMail({ siteUrl, token: 'nl_tok', unsubscribeToken: 'unsub_tok', newsletters: ['L’Hebdo', 'Les Émissions'] });
    const welcome = newsletterWelcomeMail({ siteUrl, unsubscribeToken: 'unsub_tok', newsletters: ['L’Hebdo'] });
    expect(confirm.text).toContain('L’Hebdo et Les Émissions');
    expect(welcome.text).toContain('L’Hebdo');
    for (const mail of [confirm, welcome]) {
      expect(mail.headers).toEqual(headers);
      expect(linksIn(mail.text)).toContain(`${SITE}mailinglist/unsubscribe?token=unsub_tok`);
      expect(mail.html).toContain(`href="${SITE}mailinglist/unsubscribe?token=unsub_tok"`);
    }

    await mailer.send({ to: 'abonnee@exemple.fr', ...welcome });
    const message = await latestMailTo(dir, 'abonnee@exemple.fr');
    expect(message.headers['list-unsubscribe']).toBe(`<${SITE}api/mailinglist/unsubscribe?token=unsub_tok>`);
    expect(message.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
  });
});

describe('outbox helper', () => {
  it('decodes Q and B encoded-word subjects, folded headers and quoted-printable parts', () => {
    const raw = [
      'From: =?UTF-8?Q?R=C3=A9daction_Contrechamp?= <redaction@contrechamp.media>',
      'To: =?UTF-8?B?TMOpYQ==?= <lea@exemple.fr>',
      'Subject: =?UTF-8?Q?Confirmez_votre_inscription_=C3=A0_la_lettre?=',
      ' =?UTF-8?Q?_d=E2=80=99information?=',
      'Content-Type: multipart/alternative; boundary="b1"',
      '',
      'preamble',
      '--b1',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: quoted-printable',
      '',
      'Voir https://journal.contrechamp.test/mailinglist/confirm?token=3Dabc=',
      ' et =C3=A0 bient=C3=B4t.',
      '--b1',
      'Content-Type: text/html; charset=utf-8',
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.from('<a href="https://journal.contrechamp.test/?a=1&amp;b=2">lien</a>').toString('base64'),
      '--b1--',
      '',
    ].join('\r\n');
    const message = parseEml(raw);
    expect(message.subject).toBe('Confirmez votre inscription à la lettre d’information');
    expect(message.from).toBe('Rédaction Contrechamp <redaction@contrechamp.media>');
    expect(message.to).toBe('Léa <lea@exemple.fr>');
    expect(message.text).toBe('Voir https://journal.contrechamp.test/mailinglist/confirm?token=abc et à bientôt.');
    expect(linksIn(message.text)).toEqual(['https://journal.contrechamp.test/mailinglist/confirm?token=abc']);
    expect(linksIn(message.html)).toEqual(['https://journal.contrechamp.test/?a=1&b=2']);
  });

  it('reads a missing outbox as empty and ignores files still being written', async () => {
    expect(await readOutbox(join(dir, 'absent'))).toEqual([]);
    await mailer.send({ to: 'a@exemple.fr', subject: 'x', text: 'x', html: 'x' });
    await writeFile(join(dir, '2026-11-21T10-00-00.000Z-deadbeef.eml.tmp'), 'From: a@b\nSubj');
    expect(await readOutbox(dir)).toHaveLength(1);
  });
});
