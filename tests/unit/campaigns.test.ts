import { afterEach, describe, expect, it, vi } from 'vitest';
import { CAMPAIGN_STATUSES, CAMPAIGN_STATUS_LABELS, SLUG_PATTERN, closedReason, daysLeft, progressPercent, slugify } from '~/domain/campaigns/campaigns';
import { coverFeesCents, feeFigures, feePercentOf, giftCents, readDedication } from '~/domain/campaigns/giving';
import { CampaignPageRefresher, msUntilParisMidnight } from '~/domain/campaigns/refresh.server';
import { campaignSchema } from '~/domain/campaigns/schema';

describe('campaign rules', () => {
  it('takes gifts only while active, started and not past its end date (the end day included)', () => {
    const c = { status: 'active' as const, startsOn: '2026-12-01', endsOn: '2026-12-31' };
    expect(closedReason(c, '2026-11-30')).toBe('notStarted');
    expect(closedReason(c, '2026-12-01')).toBeNull();
    expect(closedReason(c, '2026-12-31')).toBeNull();
    expect(closedReason(c, '2027-01-01')).toBe('ended');
    expect(closedReason({ ...c, status: 'ended' }, '2026-12-15')).toBe('ended');
    expect(closedReason({ ...c, status: 'draft' }, '2026-12-15')).toBe('draft');
    expect(closedReason({ status: 'active', startsOn: null, endsOn: null }, '2099-01-01')).toBeNull();
  });

  it('counts days left with the end day, progress in whole percent capped at 100', () => {
    expect(daysLeft('2026-12-31', '2026-12-31')).toBe(1);
    expect(daysLeft('2026-12-31', '2026-12-01')).toBe(31);
    expect(daysLeft('2026-12-31', '2027-01-02')).toBe(0);
    expect(daysLeft(null, '2026-12-01')).toBeNull();
    expect(progressPercent(0, 100_000)).toBe(0);
    expect(progressPercent(33_333, 100_000)).toBe(33);
    expect(progressPercent(250_000, 100_000)).toBe(100);
    expect(progressPercent(5_000, null)).toBeNull();
    expect(progressPercent(5_000, 0)).toBeNull();
    expect(progressPercent(5_000, -100)).toBeNull();
  });

  it('shows every status in French', () => {
    expect(CAMPAIGN_STATUSES.map((s) => CAMPAIGN_STATUS_LABELS[s])).toEqual(['Brouillon', 'Active', 'Terminée']);
  });

  it('makes addresses from titles in any language', () => {
    expect(slugify('Un puits à Kaya !')).toBe('un-puits-a-kaya');
    expect(slugify('  École — 300 kits  ')).toBe('ecole-300-kits');
    expect(slugify('«»')).toBe('');
    // 80 characters at most, never ending with a hyphen where the cut fell.
    expect(slugify(`${'a'.repeat(79)} bcd`)).toBe('a'.repeat(79));
    expect(slugify(`${'a'.repeat(78)} bcd`)).toBe(`${'a'.repeat(78)}-b`);
  });

  it('takes as an address lowercase words and numbers joined by single hyphens', () => {
    for (const ok of ['kaya', 'k', 'un-puits-a-kaya', '300-kits']) expect(SLUG_PATTERN.test(ok), ok).toBe(true);
    for (const bad of ['', '-kaya', 'kaya-', 'un--puits', 'Kaya', 'un puits', 'école']) expect(SLUG_PATTERN.test(bad), bad).toBe(false);
  });

  it('adds the fees the donor chose to cover, rounded to the cent', () => {
    expect(feePercentOf('2,5')).toBe(2.5);
    expect(feePercentOf('')).toBe(0);
    expect(feePercentOf('50')).toBe(0);
    expect(feePercentOf('10')).toBe(10);
    expect(feePercentOf('-2')).toBe(0);
    expect(feePercentOf(undefined)).toBe(0);
    expect(coverFeesCents(2000, 3)).toBe(60);
    expect(coverFeesCents(1999, 2.5)).toBe(50);
    expect(coverFeesCents(10, 1)).toBe(1);
    expect(coverFeesCents(2000, 0)).toBe(0);
    expect(coverFeesCents(0, 3)).toBe(0);
  });

  it('shows on the fee line the amount the action charges: the gift as the action reads it, its fee and the total', () => {
    // An amount typed wins over the preset checked, as in the action; one the action refuses is no amount.
    expect(giftCents('', 2500)).toBe(2500);
    expect(giftCents('  ', 2500)).toBe(2500);
    expect(giftCents('', null)).toBeNull();
    expect(giftCents('35', 2500)).toBe(3500);
    expect(giftCents('1 000,50', null)).toBe(100050);
    expect(giftCents('12,345', 2500)).toBeNull();
    expect(giftCents('0', 2500)).toBeNull();
    // 33,33 € at 2,5 %: 0,83325 € → 0,83 €, the cent `coverFeesCents` (and so `startGift`) adds.
    expect(feeFigures(3333, 2.5, 'fr')).toEqual({ fee: '0,83\u00a0€', amount: '33,33\u00a0€', total: '34,16\u00a0€' });
    expect(feeFigures(2000, 3, 'en')).toEqual({ fee: '€0.60', amount: '€20.00', total: '€20.60' });
    expect(feeFigures(null, 3, 'fr')).toBeNull();
    expect(feeFigures(2000, 0, 'fr')).toBeNull();
  });

  it('reads a dedication: none, complete, or what is missing', () => {
    const base = { kind: 'memory', name: '  Mariama  ', message: ' ', email: '' };
    expect(readDedication({ ...base, kind: '' })).toEqual({ ok: true, dedication: null });
    expect(readDedication(base)).toEqual({ ok: true, dedication: { kind: 'memory', name: 'Mariama', message: null, email: null } });
    expect(readDedication({ ...base, name: ' ' })).toEqual({ ok: false, error: 'giving.nameRequired' });
    expect(readDedication({ ...base, email: 'not-an-email' })).toEqual({ ok: false, error: 'giving.emailInvalid' });
    expect(readDedication({ ...base, kind: 'honor', email: 'ami@example.org' })).toMatchObject({ ok: true, dedication: { kind: 'honor', email: 'ami@example.org' } });
  });

  it('keeps a dedication within its limits: name and message cut, email checked whole', () => {
    const base = { kind: 'honor', name: 'n'.repeat(130), message: ` ${'m'.repeat(600)}`, email: ' ami@example.org ' };
    expect(readDedication(base)).toEqual({ ok: true, dedication: { kind: 'honor', name: 'n'.repeat(120), message: 'm'.repeat(500), email: 'ami@example.org' } });
    const email = (local: number, domain: number, tld: number) => `${'a'.repeat(local)}@${'b'.repeat(domain)}.${'c'.repeat(tld)}`;
    expect(email(64, 150, 38)).toHaveLength(254);
    expect(readDedication({ ...base, email: email(64, 150, 38) }).ok).toBe(true);
    expect(readDedication({ ...base, email: email(64, 150, 39) })).toEqual({ ok: false, error: 'giving.emailInvalid' });
    for (const bad of ['nom<ami@example.org', 'ami@example.org>', 'ami@example', 'ami example@x.org'])
      expect(readDedication({ ...base, email: bad }), bad).toEqual({ ok: false, error: 'giving.emailInvalid' });
  });

  it('checks the campaign form on both sides: titles, amounts, dates, address', () => {
    const ok = { 'fr.title': 'Puits', 'en.title': 'Well', 'es.title': 'Pozo', status: 'active' };
    expect(campaignSchema.safeParse(ok).success).toBe(true);
    const issues = (v: Record<string, string>) => (campaignSchema.safeParse(v).error?.issues ?? []).map((i) => `${String(i.path[0])}: ${i.message}`);
    expect(issues({ ...ok, 'en.title': '' })).toEqual(['en.title: Le titre est obligatoire en english.']);
    expect(issues({ ...ok, goal: '-5' })[0]).toMatch(/^goal: Montant invalide/);
    expect(issues({ ...ok, startsOn: '2026-12-10', endsOn: '2026-12-01' })).toEqual(['endsOn: La date de fin doit suivre la date de début.']);
    expect(issues({ ...ok, slug: 'Pas Bon' })[0]).toMatch(/^slug: L'adresse ne peut contenir/);
    expect(issues({ ...ok, 'es.impact2': 'un kit' })).toEqual(['amount2: Indiquez le montant de cette ligne (ou effacez son impact).']);
  });
});

describe('campaign pages refresh', () => {
  afterEach(() => vi.useRealTimers());

  it('drops the pages at once for a refund, and at most once a minute for successes', async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const calls: number[] = [];
    const r = new CampaignPageRefresher(async () => void calls.push(Date.now()), 60_000);
    await r.giftChanged('succeeded');
    expect(calls).toEqual([1_000_000]);
    await vi.advanceTimersByTimeAsync(10_000);
    await r.giftChanged('succeeded');
    await vi.advanceTimersByTimeAsync(10_000);
    await r.giftChanged('succeeded');
    expect(calls).toHaveLength(1);
    // The two successes in the window are shown at its end, together, and only once.
    await vi.advanceTimersByTimeAsync(39_999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toEqual([1_000_000, 1_060_000]);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(calls).toHaveLength(2);
    await r.giftChanged('refunded');
    await vi.advanceTimersByTimeAsync(1_000);
    await r.giftChanged('refunded');
    expect(calls).toEqual([1_000_000, 1_060_000, 1_180_000, 1_181_000]);
    r.stop();
  });

  it('a success a whole window after the last refresh shows at once; a refund takes the pending refresh with it', async () => {
    vi.useFakeTimers({ now: 2_000_000 });
    const calls: number[] = [];
    const r = new CampaignPageRefresher(async () => void calls.push(Date.now()), 60_000);
    await r.giftChanged('succeeded');
    await vi.advanceTimersByTimeAsync(60_000);
    await r.giftChanged('succeeded');
    expect(calls).toEqual([2_000_000, 2_060_000]);
    // A success waits for the end of the window; a refund before then refreshes at once, and the
    // refresh that was waiting is not made again.
    await vi.advanceTimersByTimeAsync(10_000);
    await r.giftChanged('succeeded');
    await vi.advanceTimersByTimeAsync(10_000);
    await r.giftChanged('refunded');
    await vi.advanceTimersByTimeAsync(120_000);
    expect(calls).toEqual([2_000_000, 2_060_000, 2_080_000]);
    r.stop();
  });

  it('stopped, it makes no refresh it was waiting for', async () => {
    vi.useFakeTimers({ now: 3_000_000 });
    const calls: number[] = [];
    const r = new CampaignPageRefresher(async () => void calls.push(Date.now()), 60_000);
    await r.giftChanged('succeeded');
    await r.giftChanged('succeeded');
    r.stop();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(calls).toEqual([3_000_000]);
  });

  it('drops the pages when the day changes in Paris', () => {
    expect(msUntilParisMidnight(new Date('2026-01-15T22:30:15.000Z'))).toBe(29 * 60_000 + 45_000 + 1000);
    // 23:30 in Paris in winter (UTC+1) and in summer (UTC+2): half an hour and a second to go.
    expect(msUntilParisMidnight(new Date('2026-01-15T22:30:00.000Z'))).toBe(30 * 60_000 + 1000);
    expect(msUntilParisMidnight(new Date('2026-07-15T21:30:00.000Z'))).toBe(30 * 60_000 + 1000);
    expect(msUntilParisMidnight(new Date('2026-07-15T22:00:00.500Z'))).toBe(86_400_000 - 500 + 1000);
  });
});
