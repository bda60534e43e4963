import { beforeEach, describe, expect, it } from 'vitest';
import { TOAST_LIMIT } from '../lib/ui-constants';
import { $toasts, clearToasts, dismissToast, toast } from './toasts';

describe('toasts store', () => {
  beforeEach(() => clearToasts());

  it('adds a toast, informative unless told otherwise', () => {
    const id = toast({ title: 'Lien copié.' });
    expect($toasts.get()).toEqual([{ id, title: 'Lien copié.', tone: 'info' }]);
  });

  it('keeps the description and the tone', () => {
    toast({ title: 'Échec', description: 'Vérifiez votre connexion.', tone: 'error' });
    expect($toasts.get()[0]).toMatchObject({ title: 'Échec', description: 'Vérifiez votre connexion.', tone: 'error' });
  });

  it('gives every toast its own id', () => {
    const a = toast({ title: 'Un' });
    const b = toast({ title: 'Un' });
    expect(a).not.toBe(b);
  });

  it(`shows at most ${TOAST_LIMIT} at once: the oldest goes`, () => {
    expect(TOAST_LIMIT).toBe(5);
    for (let i = 1; i <= 7; i++) toast({ title: `Message ${i}` });
    expect($toasts.get().map((t) => t.title)).toEqual(['Message 3', 'Message 4', 'Message 5', 'Message 6', 'Message 7']);
  });

  it('dismisses one toast by id, leaving the others', () => {
    toast({ title: 'Un' });
    const two = toast({ title: 'Deux' });
    toast({ title: 'Trois' });
    dismissToast(two);
    expect($toasts.get().map((t) => t.title)).toEqual(['Un', 'Trois']);
  });

  it('ignores an unknown or already dismissed id without notifying', () => {
    const id = toast({ title: 'Un' });
    dismissToast(id);
    let calls = 0;
    const stop = $toasts.listen(() => calls++);
    dismissToast(id);
    dismissToast('inconnu');
    stop();
    expect(calls).toBe(0);
  });
});
