import { describe, expect, it } from 'vitest';
import { escapeMailHtml, mailConfigFor } from '~/lib/mail.server';

describe('how the site sends its mails', () => {
  it('sends through SMTP_URL, from MAIL_FROM when set', () => {
    expect(mailConfigFor({ SMTP_URL: 'smtp://mail.example.org:587', MAIL_FROM: 'Fondation <dons@example.org>' }, 'https://dons.example.org')).toEqual({
      smtpUrl: 'smtp://mail.example.org:587',
      from: 'Fondation <dons@example.org>',
    });
  });

  it('else from a no-reply address at the site’s host name, never with its port', () => {
    expect(mailConfigFor({}, 'http://localhost:3000/faire-un-don')).toEqual({ smtpUrl: undefined, from: 'Fondation THV <no-reply@localhost>' });
    expect(mailConfigFor({ MAIL_FROM: '' }, 'https://www.fondation-thv.org')).toEqual({ smtpUrl: undefined, from: 'Fondation THV <no-reply@www.fondation-thv.org>' });
    // No trusted origin (a request to a forged Host, without PUBLIC_URL): never the Host it named (ADR 010).
    expect(mailConfigFor({}, undefined)).toEqual({ smtpUrl: undefined, from: 'Fondation THV <no-reply@localhost>' });
  });

  it('escapes what a donor typed before it goes into a mail’s HTML', () => {
    expect(escapeMailHtml(`<b>"Awa" & l'équipe</b>`)).toBe('&#60;b&#62;&#34;Awa&#34; &#38; l&#39;équipe&#60;/b&#62;');
    expect(escapeMailHtml('Merci pour tout')).toBe('Merci pour tout');
  });
});
