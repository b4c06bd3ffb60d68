/** A row of key figures (totals above a list). */
export function Figures({ items }: { items: { label: string; value: string | number; testId?: string }[] }) {
  return (
    <dl className="grid gap-4 sm:grid-cols-3">
      {items.map((f) => (
        <div key={f.label} className="rounded-lg border border-gray-200 bg-white p-4">
          <dt className="text-sm text-gray-700">{f.label}</dt>
          <dd className="text-2xl font-bold text-gray-900" data-testid={f.testId}>
            {f.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
