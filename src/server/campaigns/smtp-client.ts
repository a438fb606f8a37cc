import net from 'node:net';
import os from 'node:os';
import tls from 'node:tls';

/**
 * A small SMTP client for campaign sends: a pool of sessions, each carrying one message at a time,
 * whose DATA is handed over whole but for its final `.` (see transports.ts). It speaks what a mail
 * server relaying a campaign needs: EHLO, STARTTLS when offered (or TLS from the start for smtps://),
 * AUTH PLAIN or LOGIN with the URL's credentials, and PIPELINING (MAIL, RCPT and DATA in one write)
 * when offered. nodemailer, used for every other mail, streams each message through several
 * transforms and waits a round trip per command: at thousands of messages a minute that was half the
 * server's time.
 */

/** A mail server's answer other than the one expected. */
export class SmtpError extends Error {
  constructor(
    message: string,
    /** The reply code; undefined when the connection itself failed. */
    readonly code?: number,
    /** The server refused our login. */
    readonly auth = false,
  ) {
    super(message);
    this.name = 'SmtpError';
  }
}

interface Reply {
  code: number;
  text: string;
}

interface Endpoint {
  host: string;
  port: number;
  secure: boolean;
  user?: string;
  pass?: string;
  rejectUnauthorized: boolean;
}

function endpointOf(smtpUrl: string): Endpoint {
  const url = new URL(smtpUrl);
  const secure = url.protocol === 'smtps:' || url.searchParams.get('secure') === 'true';
  return {
    host: url.hostname,
    port: Number(url.port) || (secure ? 465 : 587),
    secure,
    user: url.username ? decodeURIComponent(url.username) : undefined,
    pass: url.password ? decodeURIComponent(url.password) : undefined,
    rejectUnauthorized: url.searchParams.get('tls.rejectUnauthorized') !== 'false',
  };
}

const REPLY_TIMEOUT_MS = 60_000;
const CRLF = Buffer.from('\r\n');
const DOT = Buffer.from('.');
const END_OF_DATA = Buffer.from('.\r\n');

/** DATA's body: a line starting with `.` gets a second one, and the body ends with CRLF. */
export function dataOf(raw: Buffer): Buffer {
  const parts: Buffer[] = [];
  let from = 0;
  if (raw[0] === 0x2e) parts.push(DOT);
  for (let at = raw.indexOf('\n.'); at !== -1; at = raw.indexOf('\n.', at + 2)) {
    parts.push(raw.subarray(from, at + 1), DOT);
    from = at + 1;
  }
  const endsWithCrlf = raw.length >= 2 && raw[raw.length - 2] === 0x0d && raw[raw.length - 1] === 0x0a;
  if (!parts.length) return endsWithCrlf ? raw : Buffer.concat([raw, CRLF]);
  parts.push(raw.subarray(from));
  if (!endsWithCrlf) parts.push(CRLF);
  return Buffer.concat(parts);
}

/** One connection to the mail server, answering replies in the order the commands were written. */
class Session {
  private waiting: { resolve: (reply: Reply) => void; reject: (err: Error) => void }[] = [];
  private pending = '';
  private lines: string[] = [];
  private failure: Error | undefined;
  extensions = new Set<string>();
  authMethods: string[] = [];

  private constructor(private socket: net.Socket) {
    this.attach(socket);
  }

  get alive() {
    return !this.failure;
  }

  static async open(endpoint: Endpoint): Promise<Session> {
    const socket = await connect(endpoint);
    const session = new Session(socket);
    try {
      await session.expect(await session.reply(), 220);
      await session.hello();
      if (!endpoint.secure && session.extensions.has('STARTTLS')) {
        await session.command('STARTTLS', 220);
        await session.upgrade(endpoint);
        await session.hello();
      }
      if (endpoint.user !== undefined) await session.login(endpoint.user, endpoint.pass ?? '');
      return session;
    } catch (err) {
      session.close();
      throw err;
    }
  }

  /**
   * Hands the server a message up to its final `.`; answers once the server has all of it but that,
   * or throws the server's refusal (the session stays usable after a refused address).
   */
  async hold(from: string, to: string, data: Buffer) {
    if (this.failure) throw this.failure;
    const commands = [`MAIL FROM:<${from}>`, `RCPT TO:<${to}>`, 'DATA'];
    let replies: Reply[];
    if (this.extensions.has('PIPELINING')) {
      const answered = commands.map(() => this.reply());
      this.write(Buffer.from(commands.join('\r\n') + '\r\n'));
      replies = await Promise.all(answered);
    } else {
      replies = [];
      for (const command of commands) {
        const answered = this.reply();
        this.write(Buffer.from(command + '\r\n'));
        const reply = await answered;
        replies.push(reply);
        if (reply.code >= 400) break;
      }
    }
    const refused = replies.find((reply, i) => reply.code !== (i === 2 ? 354 : 250) && reply.code !== 251);
    if (refused) {
      // A server that took DATA all the same waits for a message: end it empty. Then forget the envelope.
      if (replies[2]?.code === 354) await this.command('.', undefined);
      await this.command('RSET', 250);
      throw new SmtpError(`${refused.code} ${refused.text}`, refused.code);
    }
    // Answered once the body is with the kernel, so the final `.` written later goes out right away.
    await new Promise<void>((resolve, reject) =>
      this.socket.write(data, (err) => (err ? reject(new SmtpError(err.message)) : resolve())),
    );
  }

  /** Sends the final `.`, written before this answers; resolves on the server's acceptance. */
  release(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    const answered = this.reply();
    this.write(END_OF_DATA);
    return answered.then((reply) => {
      if (reply.code !== 250) throw new SmtpError(`${reply.code} ${reply.text}`, reply.code);
    });
  }

  close() {
    this.fail(new SmtpError('The connection to the mail server was closed'));
    this.socket.destroy();
  }

  private attach(socket: net.Socket) {
    this.socket = socket;
    socket.setTimeout(REPLY_TIMEOUT_MS, () => {
      if (this.waiting.length) socket.destroy(new SmtpError('The mail server did not answer in time'));
    });
    socket.on('data', (chunk: Buffer) => this.read(chunk.toString('latin1')));
    socket.on('error', (err) => this.fail(err instanceof SmtpError ? err : new SmtpError(err.message)));
    socket.on('close', () => this.fail(new SmtpError('The mail server closed the connection')));
  }

  private async upgrade(endpoint: Endpoint) {
    const plain = this.socket;
    plain.removeAllListeners('data');
    plain.removeAllListeners('error');
    plain.removeAllListeners('close');
    plain.setTimeout(0);
    const secured = await new Promise<tls.TLSSocket>((resolve, reject) => {
      const socket = tls.connect({ socket: plain, ...tlsOptions(endpoint) }, () => resolve(socket));
      socket.once('error', reject);
    });
    secured.removeAllListeners('error');
    this.attach(secured);
  }

  private async hello() {
    let reply = await this.command(`EHLO ${os.hostname() || 'localhost'}`, undefined);
    if (reply.code !== 250) reply = await this.command(`HELO ${os.hostname() || 'localhost'}`, 250);
    const lines = reply.text.split('\n').slice(1);
    this.extensions = new Set(lines.map((line) => line.split(' ')[0].toUpperCase()));
    const auth = lines.find((line) => /^AUTH[ =]/i.test(line));
    this.authMethods = auth ? auth.slice(5).toUpperCase().split(/\s+/) : [];
  }

  private async login(user: string, pass: string) {
    const refused = (reply: Reply) =>
      new SmtpError(`The mail server refused the login: ${reply.text}`, reply.code, true);
    if (this.authMethods.includes('PLAIN') || !this.authMethods.includes('LOGIN')) {
      const reply = await this.command(
        `AUTH PLAIN ${Buffer.from(`\0${user}\0${pass}`).toString('base64')}`,
        undefined,
      );
      if (reply.code !== 235) throw refused(reply);
      return;
    }
    for (const [line, code] of [
      ['AUTH LOGIN', 334],
      [Buffer.from(user).toString('base64'), 334],
      [Buffer.from(pass).toString('base64'), 235],
    ] as const) {
      const reply = await this.command(line, undefined);
      if (reply.code !== code) throw refused(reply);
    }
  }

  /** Writes a command and answers its reply, which must have `code` when one is given. */
  private async command(line: string, code: number | undefined): Promise<Reply> {
    const answered = this.reply();
    this.write(Buffer.from(line + '\r\n'));
    const reply = await answered;
    if (code !== undefined) await this.expect(reply, code);
    return reply;
  }

  private async expect(reply: Reply, code: number) {
    if (reply.code !== code) throw new SmtpError(`${reply.code} ${reply.text}`, reply.code);
  }

  private write(bytes: Buffer) {
    if (this.failure) throw this.failure;
    this.socket.write(bytes);
  }

  private reply(): Promise<Reply> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  private read(text: string) {
    this.pending += text;
    let end: number;
    while ((end = this.pending.indexOf('\n')) !== -1) {
      const line = this.pending.slice(0, end).replace(/\r$/, '');
      this.pending = this.pending.slice(end + 1);
      this.lines.push(line);
      // `250-…` continues a reply; `250 …` (or a bare code) ends it.
      if (line[3] === '-') continue;
      const code = Number(line.slice(0, 3));
      const reply = { code, text: this.lines.map((l) => l.slice(4)).join('\n') };
      this.lines = [];
      const waiter = this.waiting.shift();
      if (waiter) waiter.resolve(reply);
      else if (code >= 400) this.close(); // 421 and the like, unasked: the server is leaving
    }
  }

  private fail(err: Error) {
    this.failure ??= err;
    for (const waiter of this.waiting.splice(0)) waiter.reject(this.failure);
  }
}

/** An IP address is no server name (RFC 6066). */
const tlsOptions = (endpoint: Endpoint): tls.ConnectionOptions => ({
  ...(net.isIP(endpoint.host) ? {} : { servername: endpoint.host }),
  rejectUnauthorized: endpoint.rejectUnauthorized,
});

function connect(endpoint: Endpoint) {
  return new Promise<net.Socket>((resolve, reject) => {
    const options = { host: endpoint.host, port: endpoint.port };
    const socket = endpoint.secure
      ? tls.connect({
          ...options,
          servername: endpoint.host,
          rejectUnauthorized: endpoint.rejectUnauthorized,
        })
      : net.connect(options);
    socket.setNoDelay(true);
    const failed = (err: Error) =>
      reject(new SmtpError(`The mail server could not be reached: ${err.message}`));
    socket.once('error', failed);
    socket.once(endpoint.secure ? 'secureConnect' : 'connect', () => {
      socket.off('error', failed);
      resolve(socket);
    });
  });
}

/** A held message: its session carries nothing else until it is released or dropped. */
export interface SmtpHeld {
  release(): Promise<void>;
  abort(): void;
}

/** Up to `size` sessions to the server of `smtpUrl`, each taken by one message at a time. */
export function smtpPool(smtpUrl: string, size: number) {
  const endpoint = endpointOf(smtpUrl);
  const idle: Session[] = [];
  const queue: { resolve: (session: Session) => void; reject: (err: Error) => void }[] = [];
  let open = 0;
  let closed = false;

  const opened = () => {
    open += 1;
    return Session.open(endpoint).catch((err: Error) => {
      open -= 1;
      throw err;
    });
  };

  async function take(): Promise<Session> {
    if (closed) throw new SmtpError('The campaign transport was closed');
    for (let session = idle.pop(); session; session = idle.pop()) {
      if (session.alive) return session;
      open -= 1;
    }
    if (open < size) return opened();
    return new Promise((resolve, reject) => queue.push({ resolve, reject }));
  }

  function give(session: Session) {
    if (!session.alive) {
      open -= 1;
      const next = queue.shift();
      if (next) opened().then(next.resolve, next.reject);
      return;
    }
    const next = queue.shift();
    if (next) next.resolve(session);
    else idle.push(session);
  }

  return {
    async hold(from: string, to: string, raw: Buffer): Promise<SmtpHeld> {
      const session = await take();
      try {
        await session.hold(from, to, dataOf(raw));
      } catch (err) {
        give(session);
        throw err;
      }
      return {
        release() {
          const accepted = session.release();
          return accepted.finally(() => give(session));
        },
        abort() {
          session.close();
          give(session);
        },
      };
    },
    close() {
      closed = true;
      for (const session of idle.splice(0)) session.close();
      for (const waiter of queue.splice(0)) waiter.reject(new SmtpError('The campaign transport was closed'));
    },
  };
}
