/**
 * The only script public pages load (ADR 003): a few kilobytes that enhance server-rendered HTML.
 * Everything works without it; with it, the carousel turns, menus close on Escape, and buttons
 * marked data-toast-title show a toast.
 */
import { initToasts, showToast, type ToastVariant } from './toasts';

const CAROUSEL_INTERVAL = 5000;

function initCarousel(root: HTMLElement): void {
  const slides = [...root.querySelectorAll<HTMLElement>('[data-slide]')];
  if (slides.length < 2) return;
  let index = 0;
  let playing = !window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  let timer: ReturnType<typeof setInterval> | undefined;
  const show = (i: number) => {
    index = (i + slides.length) % slides.length;
    slides.forEach((s, n) => {
      s.classList.toggle('opacity-100', n === index);
      s.classList.toggle('opacity-0', n !== index);
      s.setAttribute('aria-hidden', String(n !== index));
      // Later slides load lazily: ask for the next one before it shows.
      if (n === (index + 1) % slides.length) s.querySelector('img')?.setAttribute('loading', 'eager');
    });
  };
  const toggle = root.querySelector<HTMLButtonElement>('[data-carousel-toggle]');
  const render = () => {
    if (!toggle) return;
    toggle.setAttribute('aria-label', playing ? toggle.dataset.pauseLabel! : toggle.dataset.playLabel!);
    toggle.querySelector('[data-icon-pause]')?.classList.toggle('hidden', !playing);
    toggle.querySelector('[data-icon-play]')?.classList.toggle('hidden', playing);
  };
  const schedule = () => {
    clearInterval(timer);
    if (playing) timer = setInterval(() => show(index + 1), CAROUSEL_INTERVAL);
  };
  root.querySelector('[data-carousel-prev]')?.addEventListener('click', () => { show(index - 1); schedule(); });
  root.querySelector('[data-carousel-next]')?.addEventListener('click', () => { show(index + 1); schedule(); });
  toggle?.addEventListener('click', () => { playing = !playing; render(); schedule(); });
  root.querySelector('[data-carousel-controls]')?.classList.remove('hidden');
  render();
  schedule();
}

function initMenus(): void {
  const menus = [...document.querySelectorAll<HTMLDetailsElement>('details[data-menu]')];
  for (const menu of menus) {
    menu.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && menu.open) {
        menu.open = false;
        menu.querySelector('summary')?.focus();
      }
    });
    menu.querySelectorAll('[data-menu-close]').forEach((b) =>
      b.addEventListener('click', () => {
        menu.open = false;
        menu.querySelector('summary')?.focus();
      }),
    );
    menu.addEventListener('toggle', () => {
      if (menu.open) for (const other of menus) if (other !== menu) other.open = false;
    });
  }
  document.addEventListener('click', (e) => {
    for (const menu of menus) if (menu.open && !menu.contains(e.target as Node)) menu.open = false;
  });
}

function initToastTriggers(): void {
  document.addEventListener('click', (e) => {
    const trigger = (e.target as HTMLElement).closest<HTMLElement>('[data-toast-title]');
    if (!trigger) return;
    e.preventDefault();
    showToast({
      title: trigger.dataset.toastTitle!,
      description: trigger.dataset.toastDescription,
      variant: (trigger.dataset.toastVariant as ToastVariant | undefined) ?? 'default',
    });
  });
}

/**
 * Keeps --sticky-header-height equal to the sticky header's real height (it wraps, zooms, changes
 * with the language), for the scroll padding that keeps a focused element out from under it (app.css).
 */
function initStickyHeader(): void {
  const header = document.querySelector<HTMLElement>('header[data-sticky-header]');
  if (!header || typeof ResizeObserver === 'undefined') return;
  const root = document.documentElement;
  new ResizeObserver(() => root.style.setProperty('--sticky-header-height', `${header.getBoundingClientRect().height}px`)).observe(header);
}

function initForms(): void {
  // A second click while a form is sending does not send it twice.
  document.querySelectorAll<HTMLFormElement>('form[data-busy-label]').forEach((form) => {
    form.addEventListener('submit', () => {
      const button = form.querySelector<HTMLButtonElement>('button[type=submit]');
      if (!button) return;
      button.disabled = true;
      button.textContent = form.dataset.busyLabel!;
    });
  });
}

document.documentElement.classList.add('js');
initToasts();
initToastTriggers();
initMenus();
initForms();
initStickyHeader();
document.querySelectorAll<HTMLElement>('[data-carousel]').forEach(initCarousel);
