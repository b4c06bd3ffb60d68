import { describe, expect, it } from 'vitest';
import { editable, letterErrors, letterFormValues, letterSchema, pausable, rateSchema, resumable, versionFor, versionsOf, writtenLanguages, type LetterVersions } from '~/domain/letters/letter';
import { classifyFailure, countsTowardsPause, MAX_ERRORS_IN_A_ROW, pauseReason } from '~/domain/letters/outcome';

const fr = { subject: 'Bonjour', body: 'Texte', link: '', image: '' };
const en = { subject: 'Hello', body: 'Text', link: '', image: '' };

describe('a letter’s versions', () => {
  it('gives each reader their language, French when theirs is not written', () => {
    const versions: LetterVersions = { fr, en, es: { ...en, subject: '  ' } };
    expect(versionFor(versions, 'en')).toBe(en);
    expect(versionFor(versions, 'es')).toBe(fr);
    expect(versionFor({ fr }, 'en')).toBe(fr);
    expect(versionFor(versions, 'fr')).toBe(fr);
    expect(writtenLanguages(versions)).toEqual(['fr', 'en']);
  });

  it('reads the form: French required, another version needs its text, links and images constrained', () => {
    const form = new Map(Object.entries({ 'fr.subject': ' Objet ', 'fr.body': 'Texte', 'fr.link': '/blog/x', 'fr.image': '/media/a.jpg', 'en.subject': '', audienceLanguage: 'en', audienceSource: 'signup' }));
    const parsed = letterSchema.parse(letterFormValues(form));
    expect(versionsOf(parsed)).toEqual({ fr: { subject: 'Objet', body: 'Texte', link: '/blog/x', image: '/media/a.jpg' } });
    expect(parsed).toMatchObject({ audienceLanguage: 'en', audienceSource: 'signup' });
    const bad = letterSchema.safeParse(letterFormValues(new Map(Object.entries({ 'fr.subject': 'x', 'fr.body': 'y', 'fr.link': 'http://a.b', 'fr.image': 'https://x/y.png', 'es.subject': 'Hola', audienceLanguage: 'de', audienceSource: '' }))));
    expect(bad.success).toBe(false);
    if (!bad.success) expect(Object.keys(letterErrors(bad.error)).sort()).toEqual(['audienceLanguage', 'es.body', 'fr.image', 'fr.link']);
    expect(letterSchema.safeParse(letterFormValues(new Map(Object.entries({ 'fr.subject': 'x', 'fr.body': 'y', 'fr.link': 'https://ok.example/a' })))).success).toBe(true);
  });

  it('may be edited while a draft or scheduled, paused while sending, resumed while paused', () => {
    const states = ['draft', 'scheduled', 'sending', 'paused', 'sent'] as const;
    expect(states.map(editable)).toEqual([true, true, false, false, false]);
    expect(states.map(pausable)).toEqual([false, false, true, false, false]);
    expect(states.map(resumable)).toEqual([false, false, false, true, false]);
  });

  it('takes a rate in whole messages per second and per hour', () => {
    expect(rateSchema.parse({ perSecond: '50', perHour: '20000' })).toEqual({ perSecond: 50, perHour: 20000 });
    for (const bad of [{ perSecond: '0', perHour: '1' }, { perSecond: '1.5', perHour: '1' }, { perSecond: '501', perHour: '1' }, { perSecond: '1', perHour: '0' }, { perSecond: '1', perHour: '1000001' }]) {
      expect(rateSchema.safeParse(bad).success).toBe(false);
    }
    expect(rateSchema.safeParse({ perSecond: '500', perHour: '1000000' }).success).toBe(true);
  });
});

describe('what a failed delivery means', () => {
  it('suppresses on a permanent refusal, retries when nothing left, else marks failed', () => {
    expect(classifyFailure({ responseCode: 550 })).toBe('suppress');
    expect(classifyFailure({ responseCode: 500 })).toBe('suppress');
    expect(classifyFailure({ responseCode: 599 })).toBe('suppress');
    expect(classifyFailure({ responseCode: 450 })).toBe('retry');
    expect(classifyFailure({ responseCode: 400 })).toBe('retry');
    expect(classifyFailure({ responseCode: 499 })).toBe('retry');
    expect(classifyFailure({ responseCode: 600 })).toBe('failed');
    expect(classifyFailure({ responseCode: 399 })).toBe('failed');
    expect(classifyFailure({ code: 'ESOCKET', command: 'CONN' })).toBe('retry');
    expect(classifyFailure({ code: 'ESOCKET', command: 'DATA' })).toBe('failed');
    for (const code of ['ECONNECTION', 'EDNS', 'EAUTH', 'ETLS', 'ENOAUTH']) expect(classifyFailure({ code })).toBe('retry');
    expect(classifyFailure({ code: 'ETIMEDOUT' })).toBe('failed');
    // A connection failure once the message was read by the transport: it may have left, never again.
    expect(classifyFailure({ code: 'ECONNECTION', command: 'CONN', messageRead: true })).toBe('failed');
    expect(classifyFailure({ code: 'ECONNECTION', command: 'CONN', messageRead: false })).toBe('retry');
    expect(classifyFailure({ code: 'EAUTH', messageRead: true })).toBe('failed');
    // A refusal is the server's answer whatever was read.
    expect(classifyFailure({ responseCode: 451, messageRead: true })).toBe('retry');
    expect(classifyFailure({ responseCode: 550, messageRead: true })).toBe('suppress');
    expect(classifyFailure({})).toBe('failed');
  });

  it('pauses after five failures in a row that are not an address’s refusal, and says why', () => {
    expect(MAX_ERRORS_IN_A_ROW).toBe(5);
    expect([countsTowardsPause('suppress'), countsTowardsPause('retry'), countsTowardsPause('failed')]).toEqual([false, true, true]);
    expect(pauseReason(5, 'connect ECONNREFUSED')).toBe('Envoi mis en pause automatiquement après 5 échecs de suite. Dernière erreur : connect ECONNREFUSED');
  });
});
