import { Form, Link } from 'react-router';
import { secondaryButton } from './Field';

/** The dashboard's setup checklist (ADR 037): each step a link to its screen, ticked by what is configured. */
export function SetupChecklist({ steps }: { steps: { key: string; label: string; href: string; done: boolean }[] }) {
  const left = steps.filter((s) => !s.done).length;
  return (
    <section aria-labelledby="setup-title" className="rounded-xl border border-gray-200 bg-white p-5 shadow-sm" data-testid="setup-checklist">
      <h2 id="setup-title" className="text-xl font-bold text-gray-900">
        Mise en route
      </h2>
      <p className="mt-1 text-gray-700">
        {left} étape{left > 1 ? 's' : ''} sur {steps.length} avant de recevoir les premiers dons. Chaque étape se coche d’elle-même quand le réglage est fait.
      </p>
      <ol className="mt-4 grid gap-2">
        {steps.map((s) => (
          <li key={s.key} data-step={s.key} data-done={s.done ? 'yes' : 'no'}>
            <Link to={s.href} className="flex min-h-11 items-center gap-3 rounded-md border border-gray-300 px-4 text-gray-900 hover:bg-brand-50">
              <span aria-hidden="true" className={`inline-flex h-6 w-6 shrink-0 items-center justify-center rounded-full text-sm font-bold ${s.done ? 'bg-green-700 text-white' : 'border-2 border-gray-500'}`}>
                {s.done ? '✓' : ''}
              </span>
              <span className={s.done ? 'text-gray-700 line-through' : 'font-medium'}>{s.label}</span>
              <span className="sr-only">{s.done ? ' (fait)' : ' (à faire)'}</span>
            </Link>
          </li>
        ))}
      </ol>
      <Form method="post" className="mt-4">
        <input type="hidden" name="intent" value="dismissSetup" />
        <button type="submit" className={secondaryButton}>
          Masquer cette liste
        </button>
      </Form>
    </section>
  );
}
