import { Link, data } from 'react-router';
import type { Route } from './+types/dashboard';
import { actionLabel } from '~/domain/audit/audit';
import { recentActivity } from '~/domain/audit/audit.server';
import { dashboardStats } from '~/domain/dashboard/stats.server';
import { countUnreadMessages } from '~/domain/messages/messages.server';
import { reportRange } from '~/domain/reports/period';
import { reportSummary } from '~/domain/reports/reports.server';
import { change } from '~/domain/reports/tables';
import { can, sectionOf, type AdminArea } from '~/domain/users/permissions';
import { actorOf, requireUser } from '~/routes/admin/auth.server';
import { db, runtime } from '~/lib/runtime.server';
import { dismissSetup, setupChecklist } from '~/domain/dashboard/setup.server';
import { SetupChecklist } from '~/ui/admin/SetupChecklist';
import { listOpenCampaigns } from '~/domain/campaigns/campaigns.server';
import { progressPercent } from '~/domain/campaigns/campaigns';
import { declarationReminder } from '~/domain/receipts/declaration.server';
import { dayFr } from '~/lib/paris';

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context, { area: 'dashboard' });
  const [stats, activity] = await Promise.all([dashboardStats(db()), recentActivity(db(), 10, user.role)]);
  // Unread contact messages (content issue): shown to whoever may open the Messages screen.
  const unreadMessages = can(user.role, 'messages') ? await countUnreadMessages(db()) : null;
  // The reports' summary (ADR 016), for whoever may open the reports.
  const reports = can(user.role, 'reports') ? await reportSummary(db(), reportRange({ period: '12-months', from: '', to: '' })) : null;
  // Campaigns (#16): each open campaign's progress.
  const campaigns = can(user.role, 'campaigns')
    ? (await listOpenCampaigns(db(), 'fr')).map((c) => ({ id: c.id, title: c.title, raisedCents: c.raisedCents, goalCents: c.goalCents, donors: c.donors, percent: progressPercent(c.raisedCents, c.goalCents) }))
    : [];
  // The setup checklist (ADR 037): Admins only, until every step is done or an Admin hid it.
  const checklist = user.role === 'Admin' ? await setupChecklist(db(), runtime().secret) : null;
  const setup = checklist && !checklist.done && !checklist.dismissed ? checklist.steps : null;
  // The 222 bis declaration (ADR 035): reminded to whoever may open the receipts, until marked made.
  const declaration = can(user.role, 'receipts') ? await declarationReminder(db()) : null;
  return { stats, activity, role: user.role, unreadMessages, reports, campaigns, setup, declaration };
}

/** An Admin hides the setup checklist before it is done (audited). */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context, { area: 'dashboard', role: 'Admin' });
  const form = await request.formData();
  if (form.get('intent') !== 'dismissSetup') return data({ error: 'Action inconnue.' }, { status: 400 });
  const checklist = await setupChecklist(db(), runtime().secret);
  await dismissSetup(db(), actorOf(user), checklist.steps.filter((s) => !s.done).length);
  return { error: null };
}

export const meta: Route.MetaFunction = () => [{ title: 'Dashboard | Administration' }, { name: 'robots', content: 'noindex' }];

/** The dashboard's quick actions, each shown to the roles that may open it. */
const QUICK_ACTIONS: { area: AdminArea; label: string }[] = [
  { area: 'actions', label: 'Gérer les projets' },
  { area: 'blog', label: 'Gérer les articles' },
  { area: 'media', label: 'Ouvrir la médiathèque' },
  { area: 'users', label: 'Gérer les utilisateurs' },
  { area: 'settings', label: 'Paramètres du site' },
];

const dateTime = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'short', timeStyle: 'short', timeZone: 'Europe/Paris' });
const euros = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' });
const integer = new Intl.NumberFormat('fr-FR');

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { stats, activity, role, unreadMessages, reports, campaigns, setup, declaration } = loaderData;
  const cards = [
    { label: 'Pages Gérées', value: integer.format(stats.managedPages) },
    { label: 'Projets Actifs', value: integer.format(stats.activeProjects) },
    { label: 'Articles Publiés', value: integer.format(stats.publishedPosts) },
    { label: 'Dons ce mois-ci', value: euros.format(stats.donationsThisMonthEur) },
  ];
  return (
    <div className="space-y-8">
      <h1 className="text-3xl font-bold text-gray-900">Dashboard</h1>
      {setup && <SetupChecklist steps={setup} />}
      {declaration && <DeclarationReminder reminder={declaration} />}
      {unreadMessages !== null && <UnreadMessages count={unreadMessages} />}
      {reports && <ReportSummary summary={reports} />}
      <section aria-labelledby="stats-title">
        <h2 id="stats-title" className="sr-only">
          Chiffres clés
        </h2>
        <dl className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
          {cards.map((c) => (
            <div key={c.label} className="rounded-xl border border-gray-200 bg-white p-5 shadow-sm" data-testid="stat-card">
              <dt className="text-sm font-medium text-gray-700">{c.label}</dt>
              <dd className="mt-2 text-3xl font-bold text-gray-900">{c.value}</dd>
            </div>
          ))}
        </dl>
      </section>
      {campaigns.length > 0 && <CampaignsProgress campaigns={campaigns} />}
      <div className="grid gap-8 xl:grid-cols-[1fr_2fr]">
        <section aria-labelledby="quick-title" className="rounded-xl border border-gray-200 bg-white p-5 shadow-sm">
          <h2 id="quick-title" className="text-xl font-bold text-gray-900">
            Actions rapides
          </h2>
          <ul className="mt-4 grid gap-2">
            {QUICK_ACTIONS.filter((a) => can(role, a.area)).map((a) => (
              <li key={a.area}>
                <Link to={sectionOf(a.area).path} className="flex min-h-11 items-center rounded-md border border-gray-300 px-4 font-medium text-gray-900 hover:bg-brand-50">
                  {a.label}
                </Link>
              </li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="activity-title" className="rounded-xl border border-gray-200 bg-white p-5 shadow-sm">
          <h2 id="activity-title" className="text-xl font-bold text-gray-900">
            Activité Récente
          </h2>
          {activity.length === 0 ? (
            <p className="mt-4 text-gray-700">Aucune activité pour le moment.</p>
          ) : (
            <ol className="mt-4 divide-y divide-gray-100" data-testid="activity">
              {activity.map((a) => (
                <li key={a.id} className="flex flex-wrap items-baseline justify-between gap-2 py-2 wrap-anywhere">
                  <span>
                    <span className="font-medium text-gray-900">{actionLabel(a.action)}</span>
                    <span className="text-gray-700"> · {a.target}</span>
                    <span className="text-gray-600"> · par {a.userName}</span>
                  </span>
                  <time dateTime={a.at} className="text-sm text-gray-600">
                    {dateTime.format(new Date(a.at))}
                  </time>
                </li>
              ))}
            </ol>
          )}
        </section>
      </div>
    </div>
  );
}

/** The yearly declaration of gifts (article 222 bis CGI) still to make: its deadline, the way to its figures (ADR 035). */
function DeclarationReminder({ reminder: r }: { reminder: { year: number; period: string; deadline: string; overdue: boolean; receipts: number } }) {
  return (
    <p className={`flex flex-wrap items-center gap-3 rounded-xl border p-4 shadow-sm ${r.overdue ? 'border-red-300 bg-red-50' : 'border-amber-300 bg-amber-50'}`} data-testid="declaration-reminder">
      <span className="font-medium text-gray-900">
        {r.overdue ? 'En retard : ' : ''}déclaration des dons {r.period} (article 222 bis du CGI, {integer.format(r.receipts)} reçu{r.receipts > 1 ? 's' : ''}) à faire au plus tard le {dayFr(r.deadline)}.
      </span>
      <Link to={`/admin/receipts/declaration?year=${r.year}`} className="text-brand-800 underline">
        Voir les chiffres à déclarer
      </Link>
    </p>
  );
}

/** Unread contact messages, with the way to read them (content issue). */
function UnreadMessages({ count }: { count: number }) {
  return (
    <p className="flex flex-wrap items-center gap-3 rounded-xl border border-gray-200 bg-white p-4 shadow-sm" data-testid="unread-messages">
      <span className="font-medium text-gray-900">
        {count === 0 ? 'Aucun message non lu.' : `${integer.format(count)} message${count > 1 ? 's' : ''} non lu${count > 1 ? 's' : ''}.`}
      </span>
      <Link to={sectionOf('messages').path} className="text-brand-800 underline">
        Voir les messages
      </Link>
    </p>
  );
}

const signedPercent = new Intl.NumberFormat('fr-FR', { style: 'percent', maximumFractionDigits: 1, signDisplay: 'exceptZero' });

/** The last twelve months against the twelve before, and the monthly donors (reports, ADR 016). */
function ReportSummary({ summary }: { summary: NonNullable<Route.ComponentProps['loaderData']['reports']> }) {
  const evolution = change(summary.total.cents, summary.previousTotal.cents);
  return (
    <section aria-labelledby="reports-summary-title" className="rounded-xl border border-gray-200 bg-white p-4 shadow-sm" data-testid="reports-summary">
      <h2 id="reports-summary-title" className="text-xl font-bold text-gray-900">
        Les 12 derniers mois
      </h2>
      <p className="mt-2 text-gray-900">
        {euros.format(summary.total.cents / 100)} reçus en {integer.format(summary.total.gifts)} dons
        {evolution === null ? '' : ` (${signedPercent.format(evolution)} par rapport aux 12 mois précédents)`} ; {integer.format(summary.monthly.activeDonors)} donateurs
        mensuels actifs ({euros.format(summary.monthly.recurringCents / 100)} par mois).{' '}
        <Link to={sectionOf('reports').path} className="text-brand-800 underline">
          Voir les rapports
        </Link>
      </p>
    </section>
  );
}

/** Campaigns (#16): each open campaign's raised amount against its goal. */
function CampaignsProgress({ campaigns }: { campaigns: { id: string; title: string; raisedCents: number; goalCents: number | null; donors: number; percent: number | null }[] }) {
  return (
    <section aria-labelledby="campaigns-title" className="rounded-xl border border-gray-200 bg-white p-5 shadow-sm">
      <h2 id="campaigns-title" className="text-xl font-bold text-gray-900">
        Campagnes en cours
      </h2>
      <ul className="mt-4 space-y-4">
        {campaigns.map((c) => (
          <li key={c.id} data-testid="dashboard-campaign">
            <p className="flex flex-wrap justify-between gap-2">
              <Link to={`/admin/campaigns/${c.id}`} className="font-semibold text-gray-900 underline">
                {c.title}
              </Link>
              <span className="text-gray-800">
                {euros.format(c.raisedCents / 100)}
                {c.goalCents !== null && ` / ${euros.format(c.goalCents / 100)}`} · {integer.format(c.donors)} donateur{c.donors > 1 ? 's' : ''}
              </span>
            </p>
            {c.percent !== null && (
              <>
                <progress max={100} value={c.percent} aria-label={`Progression de ${c.title}`} className="campaign-progress mt-2 h-2 w-full" />
                <p className="text-sm text-gray-700">{c.percent} % de l’objectif</p>
              </>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
