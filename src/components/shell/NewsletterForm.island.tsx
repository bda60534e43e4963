/**
 * The newsletter signup form (SPEC §4, §5). The field is required and of type email, so the
 * browser refuses an empty or malformed address and nothing is sent. Before submitting, the
 * form shows its explanatory text; once the API has accepted the address, its confirmation
 * text in the same place, and the field is cleared. A refusal shows the API's message.
 *
 * Server-rendered, it is a POST form to /mailinglist (rendered on demand), which subscribes
 * and shows the confirmation: a reader who submits before the island hydrates, or without
 * script, gets the same result there. Hydrated, it confirms in place (the submission's default
 * is prevented, so the ClientRouter leaves it alone). /mailinglist passes the outcome of its own
 * POST as props (`sentTo`, `error`), so the server-rendered form shows it.
 */
import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { subscribeToNewsletter } from '../../lib/newsletter-client';
import { useHydrated } from '../ui/use-hydrated';

export interface Props {
  /** Prefix of the ids inside, unique on the page. */
  id: string;
  /** An address to start with (what was typed, when /mailinglist refused it). */
  email?: string;
  /** /mailinglist accepted this address (its POST, then 303). */
  sentTo?: string;
  /** /mailinglist refused the address, with this French message. */
  error?: string;
}

type State = { step: 'idle' } | { step: 'sending' } | { step: 'sent'; email: string } | { step: 'failed'; message: string };

function initialState(sentTo?: string, error?: string): State {
  if (sentTo) return { step: 'sent', email: sentTo };
  if (error) return { step: 'failed', message: error };
  return { step: 'idle' };
}

export default function NewsletterForm({ id, email: initialEmail = '', sentTo, error }: Props) {
  const [email, setEmail] = useState(initialEmail);
  const [state, setState] = useState<State>(() => initialState(sentTo, error));
  const errorId = `${id}-error`;
  const hydrated = useHydrated();
  const field = useRef<HTMLInputElement>(null);

  // The island loads when the reader comes to the field (`client:focus`): what they typed
  // meanwhile is in the server-rendered field, which hydration leaves as it is.
  useEffect(() => {
    const typed = field.current?.value;
    if (typed !== undefined && typed !== email) setEmail(typed);
  }, []); // Once, at hydration.

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const address = email.trim();
    if (state.step === 'sending' || !address || !form.reportValidity()) return;
    setState({ step: 'sending' });
    const answer = await subscribeToNewsletter(address);
    if (answer.ok) {
      setState({ step: 'sent', email: address });
      setEmail('');
    } else {
      setState({ step: 'failed', message: answer.message });
    }
  }

  const failed = state.step === 'failed';
  return (
    <>
      <p className="newsletter-text" role="status" data-newsletter-text>
        {state.step === 'sent' ? (
          <>
            {/* The no-break spaces of French typography, spelled out: an island's text is not typeset on the server. */}
            {'Merci\u202f! Un e-mail de confirmation vient d’être envoyé à '}<strong>{state.email}</strong>{'\u00a0: cliquez sur le lien '}
            qu’il contient pour confirmer votre inscription. Pensez à regarder dans vos indésirables.
          </>
        ) : (
          'Chaque vendredi, notre sélection de la semaine\u00a0: enquêtes, émissions et podcasts. Gratuite, sans publicité, et vous pouvez vous désinscrire en un clic.'
        )}
      </p>
      <form className="newsletter-form" action="/mailinglist" method="post" onSubmit={onSubmit} data-hydrated={hydrated || undefined}>
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
            if (failed) setState({ step: 'idle' });
          }}
          aria-invalid={failed || undefined}
          aria-describedby={failed ? errorId : undefined}
        />
        <button className="btn btn-primary" type="submit" aria-disabled={state.step === 'sending' || undefined}>
          Je m’inscris
        </button>
      </form>
      <p className="newsletter-error" id={errorId} role="alert">
        {failed ? state.message : ''}
      </p>
    </>
  );
}
