import type { ReactNode } from 'react';
import { ScrollRegion } from './ScrollRegion';

/** A list screen's table: a caption for screen readers, column headings, and an unlabelled actions column. */
export function AdminTable({ caption, columns, children }: { caption: string; columns: string[]; children: ReactNode }) {
  return (
    <ScrollRegion label={caption} className="rounded-xl border border-gray-200 bg-white shadow-sm">
      <table className="min-w-full divide-y divide-gray-200 text-left">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-gray-50 text-sm text-gray-700">
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col" className="px-4 py-3 font-semibold">
                {c}
              </th>
            ))}
            <th scope="col" className="px-4 py-3 font-semibold">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-gray-100">{children}</tbody>
      </table>
    </ScrollRegion>
  );
}
