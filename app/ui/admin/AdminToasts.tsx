import { useEffect } from 'react';
import { bindToastHotkey } from '~/enhance/toasts';
import { ToastRegion, type ServerToast } from '~/ui/site/ToastRegion';
import { useHydrated } from './hooks';

/**
 * The back office's notification area: the public site's ToastRegion (one toast implementation).
 * Before React runs, a toast the server knows about is part of the HTML; afterwards toasts are
 * shown by showToast (useToast), which owns the region's content.
 */
export function AdminToasts({ toast }: { toast?: ServerToast | null }) {
  const hydrated = useHydrated();
  useEffect(() => bindToastHotkey(), []);
  return <ToastRegion label="Notifications (F8)" closeLabel="Fermer" toast={hydrated ? null : toast} />;
}
