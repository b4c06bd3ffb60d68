/** A list of short statements, each with a check mark (objectives, member benefits). */
export function CheckList({ items, tone = 'filled' }: { items: string[]; tone?: 'filled' | 'outlined' }) {
  return (
    <ul className="mt-6 grid gap-4 sm:grid-cols-2">
      {items.map((text) => (
        <li key={text} className={`flex gap-3 rounded-lg p-5 ${tone === 'filled' ? 'bg-brand-50' : 'border border-gray-200'}`}>
          <svg aria-hidden="true" viewBox="0 0 24 24" className="mt-0.5 h-6 w-6 flex-none text-brand-700" fill="none" stroke="currentColor" strokeWidth="2.5">
            <path d="M5 13l4 4L19 7" />
          </svg>
          <span>{text}</span>
        </li>
      ))}
    </ul>
  );
}
