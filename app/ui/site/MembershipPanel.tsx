import { meansText } from '~/domain/means/means';
import { formatMoney } from '~/lib/currency';
import type { MembershipView } from '~/domain/membership/space.server';
import type { MembershipState } from '~/domain/membership/status';
import { useI18n, type MessageKey } from '~/lib/i18n';
import { buttonClass } from '~/ui/primitives/ButtonLink';

/** The states' labels in the member's language (the register shows the same states in French). */
const STATE: Record<MembershipState, MessageKey> = {
  pending: 'memberSpace.statePending',
  active: 'memberSpace.stateActive',
  due_soon: 'memberSpace.stateDueSoon',
  grace: 'memberSpace.stateGrace',
  lapsed: 'memberSpace.stateLapsed',
  honorary: 'memberSpace.stateHonorary',
};
const DUES_STATUS: Record<string, MessageKey> = { paid: 'memberSpace.duesPaid', refunded: 'memberSpace.duesRefunded', cancelled: 'memberSpace.duesCancelled' };

const COLUMNS: MessageKey[] = ['memberSpace.colPaidOn', 'memberSpace.colAmount', 'memberSpace.colMethod', 'memberSpace.colPeriod', 'memberSpace.colStatus'];

export type MembershipPanelItem = MembershipView & { cardUrl: string; renewUrl: string | null };

/** The donor space's membership section (ADR 021): each membership, its state, its dues, its card and its renewal. */
export function MembershipPanel({ memberships, className }: { memberships: MembershipPanelItem[]; className: string }) {
  const { t, lang, formatDate } = useI18n();
  return (
    <section aria-labelledby="membership-title" className={className}>
      <h2 id="membership-title" className="text-2xl font-bold">{t('memberSpace.title')}</h2>
      <ul className="mt-4 space-y-6">
        {memberships.map((m) => {
          const duesId = `dues-${m.id}`;
          return (
            <li key={m.id} className="rounded-lg border border-gray-200 p-4" data-testid="membership">
              <h3 className="text-xl font-semibold">{t('memberSpace.number', { number: m.number })}</h3>
              <dl className="mt-3 grid gap-3 sm:grid-cols-3">
                <div><dt className="text-sm text-gray-700">{t('memberSpace.type')}</dt><dd className="font-medium wrap-anywhere">{m.typeNames[lang]}</dd></div>
                <div><dt className="text-sm text-gray-700">{t('memberSpace.state')}</dt><dd className="font-medium" data-testid="membership-state">{t(STATE[m.state])}</dd></div>
                <div>
                  <dt className="text-sm text-gray-700">{t('memberSpace.validUntil')}</dt>
                  <dd className="font-medium">{m.exempt ? t('memberSpace.noExpiry') : m.endsOn ? formatDate(m.endsOn) : t('memberSpace.notYet')}</dd>
                </div>
              </dl>
              <div className="mt-4 flex flex-wrap gap-3">
                <a href={m.cardUrl} download className={buttonClass('secondary')}>{t('memberSpace.cardDownload', { number: m.number })}</a>
                <a href={`${m.cardUrl}${m.cardUrl.includes('?') ? '&' : '?'}format=a4`} download className={buttonClass('secondary')}>{t('memberSpace.cardSheetDownload', { number: m.number })}</a>
                {m.renewUrl && <a href={m.renewUrl} className={buttonClass('primary')} aria-describedby={`renew-note-${m.id}`}>{t('memberSpace.renew', { number: m.number })}</a>}
              </div>
              {m.renewUrl && <p id={`renew-note-${m.id}`} className="mt-2 text-sm text-gray-700">{t('memberSpace.renewNote')}</p>}
              <h4 id={duesId} className="mt-6 text-lg font-semibold">{t('memberSpace.duesTitle')}</h4>
              {m.dues.length === 0 ? (
                <p className="mt-2 text-gray-700">{t('memberSpace.noDues')}</p>
              ) : (
                <div className="mt-2 overflow-x-auto" role="region" aria-labelledby={duesId} tabIndex={0}>
                  <table className="min-w-full text-left text-sm">
                    <thead className="bg-gray-50">
                      <tr>
                        {COLUMNS.map((c) => (
                          <th key={c} scope="col" className="px-3 py-2">{t(c)}</th>
                        ))}
                      </tr>
                    </thead>
                    <tbody className="divide-y divide-gray-200">
                      {m.dues.map((d) => (
                        <tr key={d.id}>
                          <td className="px-3 py-2 whitespace-nowrap">{formatDate(d.paidAt)}</td>
                          <td className="px-3 py-2 whitespace-nowrap">{formatMoney(d.amountCents, 'EUR', lang)}</td>
                          <td className="px-3 py-2">{meansText(d.method, t)}</td>
                          <td className="px-3 py-2">{d.period ? t('memberSpace.period', { start: formatDate(d.period.start), end: formatDate(d.period.end) }) : '—'}</td>
                          <td className="px-3 py-2">{DUES_STATUS[d.status] ? t(DUES_STATUS[d.status]) : d.status}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
