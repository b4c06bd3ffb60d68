import { Form } from 'react-router';
import { inputClass, primaryButton } from './Field';

/** A screen's year (or fiscal year) chooser: a GET form, so the address keeps the year shown. */
export function YearPicker({ year, years, label }: { year: number; years: number[]; label: string }) {
  return (
    <Form method="get" className="flex items-end gap-3">
      <div>
        <label htmlFor="year" className="block text-sm font-medium text-gray-900">{label}</label>
        <select id="year" name="year" defaultValue={year} className={inputClass(false)}>
          {years.map((y) => <option key={y} value={y}>{y}</option>)}
        </select>
      </div>
      <button type="submit" className={primaryButton}>Afficher</button>
    </Form>
  );
}
