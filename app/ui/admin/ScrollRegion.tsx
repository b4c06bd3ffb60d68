import type { ReactNode } from 'react';

/**
 * A wide table's own horizontal scroll (WCAG 1.4.10 lets a data table scroll inside its
 * container, never the page): focusable so the keyboard can scroll it, named for screen readers,
 * and `relative` so that visually hidden text inside (absolutely positioned) is clipped with the
 * table instead of widening the page.
 */
export function ScrollRegion({ label, className = '', children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <div role="region" aria-label={label} tabIndex={0} className={`relative overflow-x-auto ${className}`}>
      {children}
    </div>
  );
}
