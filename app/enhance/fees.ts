/**
 * The donate form's fee line (ADR 014), loaded only on the tabs that offer to cover fees. The
 * server wrote it for the amount it knew (else the percentage alone); this keeps it true as the
 * donor checks a preset or types an amount, by the rules the action charges with: `giftCents`
 * reads the amount as the action does, `feeFigures` adds what `startGift` adds.
 */
import { feeFigures, giftCents } from '~/domain/campaigns/giving';
import { interpolate } from '~/lib/interpolate';

function initFeeLine(line: HTMLElement): void {
  const form = line.closest('form');
  if (!form) return;
  const percent = Number(line.dataset.feePercent);
  const lang = document.documentElement.lang || 'fr';
  const render = () => {
    const typed = form.querySelector<HTMLInputElement>('input[name="amount"]')?.value ?? '';
    const preset = form.querySelector<HTMLInputElement>('input[name="preset"]:checked');
    const figures = feeFigures(giftCents(typed, preset ? Number(preset.dataset.cents) : null), percent, lang);
    const text = figures ? interpolate(line.dataset.template ?? '', figures) : (line.dataset.share ?? '');
    if (line.textContent !== text) line.textContent = text;
  };
  form.addEventListener('input', render);
  form.addEventListener('change', render);
  render();
}

document.querySelectorAll<HTMLElement>('[data-fee-amount]').forEach(initFeeLine);
