/**
 * Toasts (a short title and a line, green for success, red for an error, gone after a few seconds), on plain DOM so that pages without React can use them:
 * one at a time, gone after 5 s, paused while hovered or focused, dismissed by a 50 px swipe or
 * the close button; F8 moves focus to the notification area.
 */
export const TOAST_DURATION = 5000;
export const SWIPE_THRESHOLD = 50;

export type ToastVariant = 'default' | 'destructive' | 'success';
export interface ToastOptions {
  title: string;
  description?: string;
  variant?: ToastVariant;
  duration?: number;
}

const VARIANT_CLASS: Record<ToastVariant, string> = {
  default: 'toast toast-default',
  destructive: 'toast toast-destructive',
  success: 'toast toast-success',
};

/** Wires an existing toast element (rendered by the server, or made by showToast). */
export function activateToast(item: HTMLElement, duration = TOAST_DURATION): void {
  let remaining = duration;
  let started = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let hovered = false;
  let focused = false;
  const close = () => {
    clearTimeout(timer);
    item.remove();
  };
  const pause = () => {
    if (timer === undefined) return;
    clearTimeout(timer);
    timer = undefined;
    remaining -= Date.now() - started;
  };
  const resume = () => {
    if (timer !== undefined || hovered || focused) return;
    started = Date.now();
    timer = setTimeout(close, Math.max(0, remaining));
  };
  item.addEventListener('mouseenter', () => { hovered = true; pause(); });
  item.addEventListener('mouseleave', () => { hovered = false; resume(); });
  item.addEventListener('focusin', () => { focused = true; pause(); });
  item.addEventListener('focusout', () => { focused = false; resume(); });
  item.querySelector('[data-toast-close]')?.addEventListener('click', close);

  let startX: number | null = null;
  item.addEventListener('pointerdown', (e) => {
    if ((e.target as HTMLElement).closest('button')) return;
    startX = e.clientX;
    pause();
  });
  item.addEventListener('pointermove', (e) => {
    if (startX !== null) item.style.transform = `translateX(${Math.max(0, e.clientX - startX)}px)`;
  });
  const end = (e: PointerEvent) => {
    if (startX === null) return;
    const dx = e.clientX - startX;
    startX = null;
    item.style.transform = '';
    if (dx > SWIPE_THRESHOLD) close();
    else resume();
  };
  item.addEventListener('pointerup', end);
  item.addEventListener('pointercancel', end);
  resume();
}

export function toastRegion(): HTMLOListElement | null {
  return document.querySelector<HTMLOListElement>('[data-toast-region]');
}

export function showToast(options: ToastOptions): void {
  const region = toastRegion();
  if (!region) return;
  region.replaceChildren(); // one at a time
  const variant = options.variant ?? 'default';
  const item = document.createElement('li');
  item.className = VARIANT_CLASS[variant];
  // The live role sits inside the list item: a list may only hold list items.
  const body = document.createElement('div');
  body.setAttribute('role', variant === 'destructive' ? 'alert' : 'status');
  body.setAttribute('aria-atomic', 'true');
  const title = document.createElement('p');
  title.className = 'toast-title';
  title.textContent = options.title;
  body.append(title);
  if (options.description) {
    const desc = document.createElement('p');
    desc.className = 'toast-description';
    desc.textContent = options.description;
    body.append(desc);
  }
  item.append(body);
  const close = document.createElement('button');
  close.type = 'button';
  close.className = 'toast-close';
  close.dataset.toastClose = '';
  close.setAttribute('aria-label', region.dataset.closeLabel ?? 'Fermer');
  close.textContent = '×';
  body.append(close);
  region.append(item);
  activateToast(item, options.duration);
}

/** F8 moves focus to the notification area; returns a function that unbinds it. */
export function bindToastHotkey(): () => void {
  const onKey = (e: KeyboardEvent) => {
    if (e.key !== 'F8') return;
    e.preventDefault();
    toastRegion()?.focus();
  };
  window.addEventListener('keydown', onKey);
  return () => window.removeEventListener('keydown', onKey);
}

/** F8 focuses the notification area; toasts already in the page start their timers. */
export function initToasts(): void {
  const region = toastRegion();
  if (!region) return;
  region.querySelectorAll<HTMLElement>('li').forEach((li) => activateToast(li));
  bindToastHotkey();
}
