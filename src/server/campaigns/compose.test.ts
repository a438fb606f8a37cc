import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import MailComposer from 'nodemailer/lib/mail-composer';
import { freezeContent, mimeOf, type PersonalMessage } from './compose';

const base: PersonalMessage = {
  from: { name: 'Acme News', address: 'news@acme.example' },
  to: 'ada@example.com',
  replyTo: 'hello@acme.example',
  subject: 'Autumn for Ada',
  text: 'Hello Ada\n.a line that starts with a dot\nUnsubscribe: http://marquee.test/u/abc.def\n',
  html: '<p>Hello Ada</p>\n<p><a href="http://marquee.test/t/c/abc.def">Shop</a></p>',
  messageId: '<s1.1.ws1@acme.example>',
  headers: {
    'List-Unsubscribe': `<http://marquee.test/u/${'a'.repeat(60)}.${'b'.repeat(43)}>, <mailto:hello@acme.example?subject=unsubscribe%20${'a'.repeat(60)}.${'b'.repeat(43)}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  },
  unsubscribeToken: 'abc.def',
};

const read = (mail: ParsedMail) => ({
  subject: mail.subject,
  text: mail.text,
  html: mail.html,
  messageId: mail.messageId,
  from: mail.from?.value,
  to: (mail.to as AddressObject).value,
  replyTo: mail.replyTo?.value,
  unsubscribe: mail.headers.get('list-unsubscribe'),
  unsubscribePost: mail.headers.get('list-unsubscribe-post'),
});

describe('a campaign message as MIME', () => {
  it.each([
    ['plain ASCII', {}],
    [
      'non-ASCII words, quotes and long lines',
      {
        from: { name: 'Acmé "News"', address: 'news@acme.example' },
        subject: `Autumn for Zoë — ${'a long subject '.repeat(8)}`,
        text: `Hello Zoë\n${'long line '.repeat(40)}\n= sign and trailing space \n`,
        html: `<p>Hello Zoë ✨</p><p>${'x'.repeat(300)}</p>`,
      },
    ],
    ['an address nodemailer must encode', { to: 'zoë@exämple.com' }],
  ])('reads as MailComposer would write it: %s', async (_, changes) => {
    const message = { ...base, ...changes };
    const ours = await simpleParser(await mimeOf(message, undefined));
    const theirs = await simpleParser(await new MailComposer(message).compile().build());
    expect(read(ours)).toEqual(read(theirs));
  });
});

describe('freezeContent', () => {
  it("keeps a link to # (the editor's Button block) as it is, untracked, in a tracked send", () => {
    const frozen = freezeContent(
      {
        subject: 'News',
        preheader: '',
        html: '<p><a href="#" style="display:inline-block;color:#ffffff">Button</a> <a href="https://shop.example/">Shop</a></p>',
        textBody: '',
      },
      {
        workspaceId: 'ws1',
        publicUrl: 'http://marquee.test',
        secret: 's'.repeat(32),
        tracking: true,
        postalAddress: '1 Market Street',
      },
    );
    expect(frozen.html).toContain('<a href="#" style="display:inline-block;color:#ffffff">Button</a>');
    expect(frozen.links).toEqual(['https://shop.example/']);
  });
});
