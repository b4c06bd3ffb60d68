import type { Route } from './+types/admin-assembly-pdf';
import { attendanceHeading, renderAttendancePdf } from '~/domain/membership/attendance-pdf.server';
import { membersUpToDate } from '~/domain/membership/register.server';
import { requireUser } from '~/routes/admin/auth.server';
import { assemblyDayOf } from './assembly.server';
import { dayFr, membershipContext } from './admin.server';

/** The attendance sheet of the members up to date on ?date=, in the order of the list (by name). */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'memberships' });
  const { db, day, settings, typeName } = await membershipContext();
  const chosen = assemblyDayOf(new URL(request.url), day);
  if (!chosen.day) throw new Response('Date invalide', { status: 400 });
  const members = await membersUpToDate(db, chosen.day, settings.graceDays);
  const heading = attendanceHeading('Feuille de présence', dayFr(chosen.day), members.length);
  const pdf = await renderAttendancePdf(
    heading,
    members.map((m) => ({ number: m.number, name: `${m.lastName.toUpperCase()} ${m.firstName}`, type: typeName(m.typeId) })),
    new Date(),
  );
  return new Response(new Uint8Array(pdf), {
    headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': `attachment; filename="feuille-de-presence-${chosen.day}.pdf"`, 'Cache-Control': 'private, no-store' },
  });
}
