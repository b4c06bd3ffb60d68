import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { firstKey, fixFieldsToast, issueErrors } from '~/lib/form-errors';
import { formError } from '~/lib/form-errors.server';

describe('the form-error helper (issue 39)', () => {
  const schema = z.object({ name: z.string().min(1, 'Nom requis.').max(3, 'Trop long.'), items: z.array(z.object({ price: z.string().min(1, 'Prix requis.') })) });

  it('keeps each field’s first message, keyed by its dotted path, or by the key a screen gives', () => {
    const r = schema.safeParse({ name: '', items: [{ price: '' }] });
    if (r.success) throw new Error('accepted');
    expect(issueErrors(r.error.issues)).toEqual({ name: 'Nom requis.', 'items.0.price': 'Prix requis.' });
    expect(issueErrors(r.error.issues, firstKey)).toEqual({ name: 'Nom requis.', items: 'Prix requis.' });
    expect(issueErrors(r.error.issues, () => 'void:p1')).toEqual({ 'void:p1': 'Nom requis.' });
    expect(issueErrors([{ path: ['a'], message: 'first' }, { path: ['a'], message: 'second' }])).toEqual({ a: 'first' });
  });

  it('answers 400 unless told otherwise, with the body as given and the headers asked', () => {
    expect(formError({ errors: { a: 'x' } })).toMatchObject({ data: { errors: { a: 'x' } }, init: { status: 400 } });
    expect(formError({ error: 'e' }, 429, { 'Retry-After': '60' })).toMatchObject({ init: { status: 429, headers: { 'Retry-After': '60' } } });
    expect(fixFieldsToast('Paramètres non enregistrés')).toEqual({ title: 'Paramètres non enregistrés', description: 'Corrigez les champs signalés.', variant: 'destructive' });
  });
});
