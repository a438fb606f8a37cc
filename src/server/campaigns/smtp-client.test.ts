import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { dataOf, SmtpError, smtpPool } from './smtp-client';

interface Received {
  from: string;
  to: string[];
  body: string;
  secure: boolean;
  user?: string;
}

async function startServer(options: Partial<SMTPServerOptions>) {
  const received: Received[] = [];
  let connections = 0;
  const server = new SMTPServer({
    logger: false,
    onConnect(_session, callback) {
      connections += 1;
      callback();
    },
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('refused@')) return callback(new Error('550 No such user here'));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          body: Buffer.concat(chunks).toString(),
          secure: session.secure,
          user: session.user as string | undefined,
        });
        callback();
      });
    },
    ...options,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    received,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const MESSAGE = Buffer.from('Subject: Hi\r\n\r\nHello\r\n.starts with a dot\r\n..two\r\nend');

/** Waits for the server's side of things, which follows the client's by a round trip. */
async function until<T>(check: () => T | undefined): Promise<T> {
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('dataOf', () => {
  it('doubles a dot that starts a line and ends the body with CRLF', () => {
    expect(dataOf(Buffer.from('.a\r\nb\r\n.c\r\n..d')).toString()).toBe('..a\r\nb\r\n..c\r\n...d\r\n');
    const plain = Buffer.from('a\r\nb.\r\n');
    expect(dataOf(plain)).toBe(plain);
  });
});

describe('smtpPool', () => {
  it('holds a message until released, over STARTTLS with AUTH PLAIN and without pipelining', async () => {
    const server = await startServer({
      hidePIPELINING: true,
      authMethods: ['PLAIN'],
      onAuth(auth, _session, callback) {
        if (auth.username === 'mia' && auth.password === 'p@ss:word') return callback(null, { user: 'mia' });
        callback(new Error('Invalid username or password'));
      },
    });
    const pool = smtpPool(
      `smtp://mia:${encodeURIComponent('p@ss:word')}@127.0.0.1:${server.port}?tls.rejectUnauthorized=false`,
      2,
    );
    const held = await pool.hold('news@acme.test', 'ann@example.test', MESSAGE);
    // A second message, handed over after the first and released at once, arrives alone.
    const other = await pool.hold('news@acme.test', 'bob@example.test', MESSAGE);
    await other.release();
    expect(server.received.map((r) => r.to[0])).toEqual(['bob@example.test']);
    await held.release();
    expect(server.received[1]).toEqual({
      from: 'news@acme.test',
      to: ['ann@example.test'],
      body: `${MESSAGE.toString()}\r\n`,
      secure: true,
      user: 'mia',
    });
    pool.close();
    await server.close();
  });

  it('says when the login is refused', async () => {
    const server = await startServer({
      authMethods: ['LOGIN'],
      allowInsecureAuth: true,
      hideSTARTTLS: true,
      onAuth(_auth, _session, callback) {
        callback(new Error('Invalid username or password'));
      },
    });
    const pool = smtpPool(`smtp://mia:wrong@127.0.0.1:${server.port}`, 1);
    const refused = await pool
      .hold('news@acme.test', 'ann@example.test', MESSAGE)
      .catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(SmtpError);
    expect(refused).toMatchObject({ auth: true, code: 535 });
    pool.close();
    await server.close();
  });

  it('keeps a session after a refused address, with pipelining, and drops an aborted message', async () => {
    const server = await startServer({ disabledCommands: ['STARTTLS', 'AUTH'] });
    const pool = smtpPool(`smtp://127.0.0.1:${server.port}`, 1);
    const refused = await pool
      .hold('news@acme.test', 'refused@example.test', MESSAGE)
      .catch((err: unknown) => err);
    expect(refused).toMatchObject({ code: 550, message: expect.stringContaining('550 No such user here') });
    const held = await pool.hold('news@acme.test', 'ann@example.test', MESSAGE);
    await held.release();
    const dropped = await pool.hold('news@acme.test', 'bob@example.test', MESSAGE);
    dropped.abort();
    const after = await pool.hold('news@acme.test', 'cy@example.test', MESSAGE);
    await after.release();
    expect(server.received.map((r) => r.to[0])).toEqual(['ann@example.test', 'cy@example.test']);
    // One session for the refusal and the next message; a new one after the abort.
    expect(await until(() => (server.connections() === 2 ? 2 : undefined))).toBe(2);
    pool.close();
    await server.close();
  });
});
