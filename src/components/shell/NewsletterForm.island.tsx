/**
 * The footer's newsletter signup form (SPEC §4, §5): the address and one box per newsletter open
 * to all (the default one ticked). The field is required and of type email, so the browser
 * refuses an empty or malformed address and nothing is sent; no box ticked is refused here, in
 * French. Before submitting, the form shows its explanatory text; once the API has accepted the
 * address, its confirmation text in the same place, and the field is cleared. A refusal shows
 * the API's message.
 *
 * Server-rendered, it is a POST form to /mailinglist (rendered on demand), which subscribes
 * and shows the confirmation: a reader who submits before the island hydrates, or without
 * script, gets the same result there (each box is its own field, `lettre-<id>`, and `choix` says
 * that a choice was offered). Hydrated, it confirms in place (the submission's default is
 * prevented, so the ClientRouter leaves it alone).
 *
 * The newsletters come as props from the server (src/config/newsletters.ts), so that the
 * configuration's parser never ships to the browser.
 */
import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { subscribeToNewsletter } from '../../lib/newsletter-client';
import { useHydrated } from '../ui/use-hydrated';

export interface Props {
  /** Prefix of the ids inside, unique on the page. */
  id: string;
  /** The newsletters open to all, in the configuration's order. */
  newsletters: readonly { id: string; name: string }[];
  /** The ones ticked at first (the default newsletter). */
  chosen: readonly string[];
  /** An address to start with. */
  email?: string;
}

type State = { step: 'idle' } | { step: 'sending' } | { step: 'sent'; email: string } | { step: 'failed'; message: string; field: 'email' | 'choice' };

const NONE_CHOSEN = 'Cochez au moins une lettre d’information.';

export default function NewsletterForm({ id, newsletters, chosen: initialChoice, email: initialEmail = '' }: Props) {
  const [email, setEmail] = useState(initialEmail);
  const [chosen, setChosen] = useState<readonly string[]>(initialChoice);
  const [state, setState] = useState<State>({ step: 'idle' });
  const errorId = `${id}-error`;
  const hydrated = useHydrated();
  const field = useRef<HTMLInputElement>(null);
  const form = useRef<HTMLFormElement>(null);

  // The island loads when the reader comes to the form (`client:focus`): what they typed or
  // ticked meanwhile is in the server-rendered form, which hydration leaves as it is.
  useEffect(() => {
    const typed = field.current?.value;
    if (typed !== undefined && typed !== email) setEmail(typed);
    const boxes = [...(form.current?.querySelectorAll<HTMLInputElement>('input[type="checkbox"][data-newsletter-id]') ?? [])];
    const ticked = boxes.filter((box) => box.checked).map((box) => box.dataset.newsletterId ?? '');
    if (boxes.length > 0 && ticked.join() !== chosen.join()) setChosen(ticked);
  }, []); // Once, at hydration.

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const address = email.trim();
    if (state.step === 'sending' || !address || !event.currentTarget.reportValidity()) return;
    if (chosen.length === 0) {
      setState({ step: 'failed', message: NONE_CHOSEN, field: 'choice' });
      return;
    }
    setState({ step: 'sending' });
    const answer = await subscribeToNewsletter(address, chosen);
    if (answer.ok) {
      setState({ step: 'sent', email: address });
      setEmail('');
    } else {
      setState({ step: 'failed', message: answer.message, field: 'email' });
    }
  }

  function toggle(newsletter: string, on: boolean) {
    setChosen((current) => newsletters.map((n) => n.id).filter((n) => (n === newsletter ? on : current.includes(n))));
    if (state.step === 'failed' && state.field === 'choice') setState({ step: 'idle' });
  }

  const failedOn = state.step === 'failed' ? state.field : null;
  return (
    <>
      <p className="newsletter-text" role="status" data-newsletter-text>
        {state.step === 'sent' ? (
          <>
            {/* The no-break spaces of French typography, spelled out: an island's text is not typeset on the server. */}
            {'Merci\u202f! Un e-mail de confirmation vient d’être envoyé à '}
            <strong>{state.email}</strong>
            {'\u00a0: cliquez sur le lien '}
            qu’il contient pour confirmer votre inscription. Pensez à regarder dans vos indésirables.
          </>
        ) : (
          'Nos lettres d’information sont gratuites et sans publicité\u00a0: choisissez les vôtres, vous pourrez vous désinscrire en un clic.'
        )}
      </p>
      <form ref={form} className="newsletter-form" action="/mailinglist" method="post" onSubmit={onSubmit} data-hydrated={hydrated || undefined}>
        <input type="hidden" name="choix" value="1" />
        <label className="sr-only" htmlFor={`${id}-email`}>
          Votre adresse e-mail
        </label>
        <input
          ref={field}
          className="input"
          id={`${id}-email`}
          name="email"
          type="email"
          required
          autoComplete="email"
          placeholder="votre@adresse.fr"
          value={email}
          onChange={(event) => {
            setEmail(event.target.value);
            if (failedOn === 'email') setState({ step: 'idle' });
          }}
          aria-invalid={failedOn === 'email' || undefined}
          aria-describedby={failedOn === 'email' ? errorId : undefined}
        />
        <fieldset className="newsletter-choice" aria-describedby={failedOn === 'choice' ? errorId : undefined}>
          <legend className="newsletter-legend">Lettres choisies</legend>
          {newsletters.map((n) => (
            <label className="newsletter-option" key={n.id}>
              <input
                type="checkbox"
                name={`lettre-${n.id}`}
                data-newsletter-id={n.id}
                checked={chosen.includes(n.id)}
                onChange={(event) => toggle(n.id, event.target.checked)}
                aria-invalid={failedOn === 'choice' || undefined}
              />
              {n.name}
            </label>
          ))}
        </fieldset>
        <button className="btn btn-primary" type="submit" aria-disabled={state.step === 'sending' || undefined}>
          Je m’inscris
        </button>
      </form>
      <p className="newsletter-error" id={errorId} role="alert">
        {state.step === 'failed' ? state.message : ''}
      </p>
    </>
  );
}
