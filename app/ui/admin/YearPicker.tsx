import { Form } from 'react-router';
import { inputClass, primaryButton } from './Field';

/** A screen's year (or fiscal year) chooser: a GET form, so the address keeps the year shown. `names`, when given, are the options' words, one per year ("Exercice 2025-2026 (…)"). */
export function YearPicker({ year, years, label, names }: { year: number; years: number[]; label: string; names?: string[] }) {
  return (
    <Form method="get" className="flex items-end gap-3">
      <div>
        <label htmlFor="year" className="block text-sm font-medium text-gray-900">{label}</label>
        <select id="year" name="year" defaultValue={year} className={inputClass(false)}>
          {years.map((y, i) => <option key={y} value={y}>{names?.[i] ?? y}</option>)}
        </select>
      </div>
      <button type="submit" className={primaryButton}>Afficher</button>
    </Form>
  );
}
