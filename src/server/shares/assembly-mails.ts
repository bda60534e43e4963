/**
 * The mails of general assemblies: the notice (convocation) to every member called, the word to
 * a member who was given a proxy, and the results when the vote closes. None carries a secret.
 */
import { formatDateTime } from '../../lib/dates';
import { oneLine, renderMail, siteLink, type Block, type MailContent } from '../mail/layout';
import { OUTCOME_LABEL, resolutionOutcome } from './tally';

export const assemblyPath = (assemblyId: string) => `/mon-compte/societariat/assemblee-${encodeURIComponent(assemblyId)}`;

export const kindLabel = (kind: 'ordinary' | 'extraordinary') => (kind === 'ordinary' ? 'assemblée générale ordinaire' : 'assemblée générale extraordinaire');
export const callLabel = (call: 'first' | 'second') => (call === 'first' ? 'première convocation' : 'seconde convocation');

const REASON =
  'Vous recevez ce message parce que vous êtes sociétaire de Contrechamp : les statuts prévoient la convocation de chaque sociétaire aux assemblées générales.';

export function noticeMail(input: {
  siteUrl: URL;
  assemblyId: string;
  kind: 'ordinary' | 'extraordinary';
  call: 'first' | 'second';
  title: string;
  startsAt: Date;
  place: string;
  onlineUrl: string;
  agenda: readonly string[];
  voteOpensAt: Date;
  voteClosesAt: Date;
  memberName: string;
  quorum: string;
  majority: string;
  proxiesPerMember: number;
  documents: readonly string[];
  /** On second call: when the first-call assembly met without reaching its quorum. */
  firstCallStartsAt?: Date | undefined;
}): MailContent {
  const where: Array<readonly [string, string]> = [['Date', `${formatDateTime(input.startsAt)} (heure de Paris)`]];
  if (input.place) where.push(['Lieu', input.place]);
  if (input.onlineUrl) where.push(['En ligne', input.onlineUrl]);
  where.push(['Vote en ligne', `du ${formatDateTime(input.voteOpensAt)} au ${formatDateTime(input.voteClosesAt)} (heure de Paris)`]);
  const link = siteLink(input.siteUrl, assemblyPath(input.assemblyId));
  return renderMail('assembly-notice', {
    siteUrl: input.siteUrl,
    subject: `Convocation : ${oneLine(input.title, 100)}, le ${formatDateTime(input.startsAt)}`,
    heading: `Convocation à l’${kindLabel(input.kind)}`,
    preheader: `${input.title} : ordre du jour, documents, pouvoirs et vote en ligne.`,
    blocks: [
      { kind: 'paragraph', text: `Bonjour ${input.memberName},` },
      {
        kind: 'paragraph',
        text: ['Nous vous convoquons à l’', { strong: kindLabel(input.kind) }, ` de Contrechamp (${callLabel(input.call)}) : `, { strong: input.title }, '.'],
      },
      ...(input.firstCallStartsAt
        ? ([
            {
              kind: 'paragraph',
              text: `L’assemblée réunie le ${formatDateTime(input.firstCallStartsAt)} sur première convocation n’a pas atteint le quorum requis : elle n’a pas pu délibérer. Comme le prévoient les statuts, elle est donc convoquée une seconde fois, sur le même ordre du jour, avec le quorum propre à la seconde convocation. Les pouvoirs donnés et les votes exprimés pour la première assemblée ne valent pas pour celle-ci : votez de nouveau ou donnez un nouveau pouvoir.`,
            },
          ] satisfies Block[])
        : []),
      { kind: 'fields', rows: where },
      { kind: 'paragraph', text: 'Ordre du jour :' },
      { kind: 'fields', rows: input.agenda.map((item, i) => [`${i + 1}.`, item] as const) },
      ...(input.documents.length
        ? ([{ kind: 'paragraph', text: `Documents à consulter dans votre espace Sociétariat : ${input.documents.join(' ; ')}.` }] satisfies Block[])
        : []),
      {
        kind: 'paragraph',
        text: 'Dans votre espace Sociétariat, vous pouvez indiquer si vous participerez sur place, à distance ou pas du tout, donner pouvoir à un autre sociétaire ou à la présidence de séance jusqu’à l’ouverture du vote, puis voter en ligne sur chaque résolution.',
      },
      { kind: 'action', label: 'Voir la convocation et voter', url: link },
      {
        kind: 'note',
        text: `Chaque sociétaire a une voix, pondérée selon son collège. ${input.quorum === '0/1' ? `Aucun quorum n’est requis sur ${callLabel(input.call)}.` : `Quorum sur ${callLabel(input.call)} : ${input.quorum} des sociétaires présents, représentés ou ayant voté.`} Majorité : ${input.majority} des suffrages exprimés. Chaque sociétaire peut détenir ${input.proxiesPerMember} pouvoir${input.proxiesPerMember > 1 ? 's' : ''} au plus.`,
      },
    ],
    reason: REASON,
  });
}

export function proxyReceivedMail(input: {
  siteUrl: URL;
  assemblyId: string;
  title: string;
  startsAt: Date;
  grantorName: string;
  voteOpensAt: Date;
  voteClosesAt: Date;
}): MailContent {
  return renderMail('assembly-proxy-received', {
    siteUrl: input.siteUrl,
    subject: `${oneLine(input.grantorName, 80)} vous confie son pouvoir pour l’assemblée du ${formatDateTime(input.startsAt)}`,
    heading: 'Un pouvoir vous est confié',
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      {
        kind: 'paragraph',
        text: [
          { strong: input.grantorName },
          ` vous a confié son pouvoir pour l’assemblée du ${formatDateTime(input.startsAt)} : `,
          { strong: input.title },
          '.',
        ],
      },
      {
        kind: 'paragraph',
        text: `Vous pourrez voter en son nom, en plus de votre propre vote, du ${formatDateTime(input.voteOpensAt)} au ${formatDateTime(input.voteClosesAt)} (heure de Paris). Ce pouvoir peut vous être retiré jusqu’à l’ouverture du vote.`,
      },
      { kind: 'action', label: 'Voir l’assemblée', url: siteLink(input.siteUrl, assemblyPath(input.assemblyId)) },
    ],
    reason: REASON,
  });
}

export function resultsMail(input: {
  siteUrl: URL;
  assemblyId: string;
  title: string;
  quorumMet: boolean;
  resolutions: ReadonlyArray<{ position: number; title: string; adopted: boolean; sharePercent: string | null }>;
}): MailContent {
  return renderMail('assembly-results', {
    siteUrl: input.siteUrl,
    subject: `Résultats : ${oneLine(input.title, 100)}`,
    heading: 'Les résultats des votes sont publiés',
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      {
        kind: 'paragraph',
        text: [
          'Le vote est clos : ',
          { strong: input.title },
          '.',
          input.quorumMet
            ? ''
            : ' Le quorum n’a pas été atteint : l’assemblée n’a donc pas pu délibérer, et aucune résolution n’est adoptée ni rejetée. Les votes exprimés sont publiés pour mémoire.',
        ],
      },
      {
        kind: 'fields',
        rows: input.resolutions.map(
          (r) =>
            [
              `Résolution n° ${r.position}`,
              `${r.title} — ${OUTCOME_LABEL[resolutionOutcome(input.quorumMet, r)]}${r.sharePercent ? ` (${r.sharePercent} pour)` : ''}`,
            ] as const,
        ),
      },
      {
        kind: 'paragraph',
        text: 'Le procès-verbal, le détail par collège et la liste des bulletins de vote sont dans votre espace Sociétariat ; votre reçu de vote vous permet d’y retrouver les vôtres.',
      },
      { kind: 'action', label: 'Voir les résultats', url: siteLink(input.siteUrl, assemblyPath(input.assemblyId)) },
    ],
    reason: REASON,
  });
}
