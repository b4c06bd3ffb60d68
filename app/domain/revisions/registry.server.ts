import { postEditable } from '~/domain/blog/editable.server';
import type { Editable } from './editables.server';

/**
 * The content types in the editorial workflow. A type joins by exporting an `Editable` from its
 * own area (see app/domain/blog/editable.server.ts) and adding it here (ADR 015).
 */
const EDITABLES: Editable[] = [postEditable];

export function editable(type: string): Editable | undefined {
  return EDITABLES.find((e) => e.type === type);
}
