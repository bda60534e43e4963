/**
 * The demo podcasts of Contrechamp: three shows and their episodes.
 * Each episode carries its French script (spoken by espeak-ng) and its show notes.
 * Read by scripts/media/audio.mjs, which writes the content files and the MP3s.
 * The spoken text is a one-line show intro followed by `script`; `notes` opens the show notes.
 */

export const shows = [
  {
    slug: 'les-voix-du-terrain',
    label: 'Les Voix du terrain',
    description:
      'Des reportages sonores enregistrés là où les choses se passent : dans les ateliers, les villages, les cages d’escalier et les salles de classe. Chaque épisode donne la parole à celles et ceux qu’on entend rarement, sans commentaire superflu.',
    alt: 'Pochette carrée du podcast Les Voix du terrain : le nom de l’émission au-dessus d’un micro tendu vers un paysage.',
    category: 'documentaire',
    itunesCategory: 'Society & Culture',
    itunesSubcategory: 'Documentary',
    authors: ['nicolas-perrin', 'karim-benali'],
    credits: { realisation: 'Nicolas Perrin', voix: 'Karim Benali' },
  },
  {
    slug: 'a-contre-courant',
    label: 'À contre-courant',
    description:
      'De longs entretiens avec des femmes et des hommes qui ont choisi d’aller à rebours des évidences. Une maire, un médecin, une ingénieure ou une juge racontent leurs doutes, leurs choix et ce qu’ils leur ont coûté.',
    alt: 'Pochette carrée du podcast À contre-courant : le nom de l’émission sur une vague stylisée qui remonte le courant.',
    category: 'entretien',
    itunesCategory: 'News',
    itunesSubcategory: 'Politics',
    authors: ['aminata-diallo', 'lea-moreau'],
    credits: { realisation: 'Léa Moreau', voix: 'Aminata Diallo' },
  },
  {
    slug: 'la-fabrique-de-l-info',
    label: 'La Fabrique de l’info',
    description:
      'Une courte chronique sur la manière dont se fabrique le journalisme, à Contrechamp et ailleurs. Vérification, sources, argent, erreurs : on ouvre les coulisses de la rédaction.',
    alt: 'Pochette carrée du podcast La Fabrique de l’info : le nom de l’émission au-dessus d’engrenages mêlés à des feuilles de journal.',
    category: 'chronique',
    itunesCategory: 'News',
    itunesSubcategory: 'News Commentary',
    authors: ['sophie-lambert'],
    credits: { realisation: 'Sophie Lambert', voix: 'Sophie Lambert' },
  },
];

/** Episodes, in order of publication. */
export const episodes = [
  {
    show: 'les-voix-du-terrain',
    slug: 'la-derniere-poste-du-canton',
    title: 'La dernière poste du canton',
    published: '2026-01-05T06:00:00+01:00',
    summary:
      'Dans le centre de la Bretagne, le dernier bureau de poste du canton doit fermer au printemps. Nous avons passé une matinée au guichet, avec celles et ceux qui en dépendent.',
    tags: ['services-publics', 'bretagne'],
    script:
      'Huit heures trente, à Saint-Connan-des-Landes, dans le centre de la Bretagne. Devant le bureau de poste, trois personnes attendent déjà. Maryvonne, quatre-vingt-un ans, vient retirer sa pension en liquide, comme chaque mois. Derrière elle, un artisan dépose des colis pour ses clients. Le guichet doit fermer en avril, remplacé par un point relais dans la supérette. Annick, la guichetière, travaille ici depuis vingt-deux ans. Elle connaît les prénoms, les enfants, les lettres qui n’arrivent plus. Pour elle, on ne ferme pas seulement un bureau, on ferme un endroit où l’on se parle. Le maire, lui, a fait voter une motion. Il sait qu’elle ne changera sans doute rien, mais il veut que cela se sache.',
    notes:
      'Au centre de la Bretagne, le dernier bureau de poste du canton vit ses derniers mois. Une matinée au guichet, avec les habitants, la guichetière et le maire.',
    bullets: [
      'La file d’attente de huit heures trente, et ce qu’elle dit du territoire',
      'Annick, vingt-deux ans de guichet',
      'Le point relais de la supérette, solution de remplacement',
      'Une motion municipale, pour que cela se sache',
    ],
  },
  {
    show: 'les-voix-du-terrain',
    slug: 'marseille-la-chaleur-dans-les-etages',
    title: 'Marseille, la chaleur dans les étages',
    published: '2026-03-16T06:00:00+01:00',
    summary:
      'Dans une copropriété dégradée du nord de Marseille, les habitants racontent les étés à trente-cinq degrés dans les appartements et leur combat pour obtenir une rénovation.',
    tags: ['logement', 'climat', 'marseille'],
    script:
      'Au nord de Marseille, la résidence des Tilleuls compte trois cents logements. Au neuvième étage, Samia ouvre ses volets alors qu’il ne fait encore que seize degrés dehors. L’été dernier, elle a relevé trente-cinq degrés dans la chambre de ses enfants. Les murs ne sont pas isolés, les fenêtres ferment mal, et l’ascenseur tombe en panne dès qu’il fait chaud. Avec ses voisins, elle a créé une association de locataires. Ils ont mesuré les températures, étage par étage, pendant tout un mois d’août. Leurs relevés ont fini sur le bureau du bailleur, puis de la préfecture. Un plan de rénovation est enfin promis pour l’année prochaine. Samia y croira quand elle verra les échafaudages.',
    notes:
      'Dans une copropriété du nord de Marseille, les étés deviennent invivables. Les habitants ont décidé de mesurer eux-mêmes la chaleur de leurs appartements pour se faire entendre.',
    bullets: [
      'Trente-cinq degrés dans une chambre d’enfant',
      'Un relevé de températures, étage par étage',
      'L’association des locataires face au bailleur',
      'La promesse d’une rénovation',
    ],
  },
  {
    show: 'les-voix-du-terrain',
    slug: 'les-nuits-des-livreurs',
    title: 'Les nuits des livreurs à Lyon',
    published: '2026-05-11T06:00:00+02:00',
    summary:
      'De vingt heures à deux heures du matin, nous avons suivi des livreurs à vélo dans les rues de Lyon, entre courses mal payées, algorithmes opaques et solidarités de trottoir.',
    tags: ['travail', 'numerique', 'lyon'],
    script:
      'Vingt heures, place des Terreaux, à Lyon. Moussa attache son sac isotherme et regarde son téléphone. La soirée commence, et avec elle l’attente des commandes. Ce soir, chaque course rapporte un peu moins que le mois dernier. Personne ne sait vraiment pourquoi : l’application a changé son calcul sans prévenir. Entre deux livraisons, les livreurs se retrouvent sur un banc, partagent un chargeur, échangent des conseils. Certains ont monté un collectif pour réclamer un tarif minimum. Élodie, étudiante, pédale pour payer son loyer. Elle dit qu’elle aime la ville la nuit, mais qu’elle n’aime pas avoir peur à chaque carrefour. À deux heures du matin, Moussa rentre chez lui. Il a gagné quarante-deux euros.',
    notes:
      'Une nuit avec les livreurs à vélo de Lyon, entre courses de moins en moins payées, application qui change ses règles sans prévenir et collectif qui s’organise.',
    bullets: [
      'L’attente des commandes, place des Terreaux',
      'Un algorithme qui change ses tarifs en silence',
      'Le collectif qui réclame un tarif minimum',
      'Quarante-deux euros pour une nuit de travail',
    ],
  },
  {
    show: 'les-voix-du-terrain',
    slug: 'une-source-pour-trois-villages',
    title: 'Une source pour trois villages',
    published: '2026-07-20T06:00:00+02:00',
    summary:
      'Dans la Drôme, une seule source alimente trois villages et une quinzaine d’exploitations agricoles. Après deux étés de sécheresse, il a fallu apprendre à la partager.',
    tags: ['eau', 'agriculture', 'climat'],
    script:
      'Dans la vallée, il n’y a qu’une source. Elle alimente trois villages et une quinzaine de fermes. Pendant des décennies, personne ne s’en est inquiété. Puis sont venus deux étés sans pluie. Le débit a baissé de moitié, et les robinets ont toussé. Jean-Marc, éleveur de chèvres, se souvient du jour où il a dû faire venir de l’eau par camion. Chez les maraîchers, on a installé le goutte-à-goutte et renoncé aux cultures les plus gourmandes. Les trois communes ont fini par créer une commission de l’eau, où siègent des élus, des agriculteurs et des habitants tirés au sort. Chaque mois, elle décide ensemble des priorités. Ce n’est pas toujours simple, dit sa présidente, mais au moins on se parle avant de manquer.',
    notes:
      'Dans une vallée de la Drôme, trois villages et une quinzaine de fermes dépendent d’une seule source. Après deux étés de sécheresse, ils ont inventé une manière de la partager.',
    bullets: [
      'Le jour où l’eau est arrivée par camion',
      'Goutte-à-goutte et cultures abandonnées chez les maraîchers',
      'Une commission de l’eau avec des habitants tirés au sort',
      'Décider des priorités avant de manquer',
    ],
  },
  {
    show: 'les-voix-du-terrain',
    slug: 'l-ecole-ouverte-le-samedi',
    title: 'Aubervilliers, l’école ouverte le samedi',
    published: '2026-10-12T06:00:00+02:00',
    summary:
      'À Aubervilliers, un collège ouvre ses portes le samedi matin pour l’aide aux devoirs, des ateliers et des cours de français pour les parents. Reportage dans un établissement qui refuse de fermer le week-end.',
    tags: ['education', 'seine-saint-denis'],
    script:
      'Samedi, neuf heures, à Aubervilliers. Le collège est censé être fermé, pourtant la cour est pleine. Au premier étage, des élèves de quatrième révisent leurs fractions avec deux enseignants bénévoles. Au rez-de-chaussée, une dizaine de mères suivent un cours de français. Fatou prend des notes avec application : elle veut pouvoir lire seule les messages de l’école. L’idée vient de la principale, arrivée il y a trois ans. Elle a convaincu la mairie de financer le gardiennage et les associations du quartier d’animer les ateliers. Il y a du théâtre, de la robotique, et même un club d’échecs. Le rectorat observe, sans promettre de crédits. En attendant, le samedi matin, le collège reste ouvert.',
    notes:
      'À Aubervilliers, en Seine-Saint-Denis, un collège ouvre ses portes le samedi matin aux élèves et à leurs parents. Une matinée dans un établissement qui refuse de fermer le week-end.',
    bullets: [
      'Les fractions du samedi matin avec des enseignants bénévoles',
      'Un cours de français pour les parents',
      'Théâtre, robotique et club d’échecs',
      'Une initiative locale que le rectorat observe',
    ],
  },
];

episodes.push(
  {
    show: 'a-contre-courant',
    slug: 'le-budget-vote-par-les-habitants',
    title: 'Hélène Kervella, la maire qui fait voter le budget aux habitants',
    published: '2026-02-09T07:00:00+01:00',
    summary:
      'Dans sa commune bretonne de quatre mille habitants, Hélène Kervella a confié un tiers du budget d’investissement à une assemblée citoyenne. Elle raconte pourquoi, et ce que cela a changé.',
    tags: ['democratie', 'bretagne'],
    script:
      'Hélène Kervella est maire d’une commune de quatre mille habitants, près de Lorient. Il y a deux ans, elle a pris une décision que beaucoup d’élus jugeaient imprudente : confier un tiers du budget d’investissement à une assemblée de quarante habitants tirés au sort. Au début, raconte-t-elle, on m’a dit que les gens voteraient n’importe quoi. Ils ont voté la rénovation de l’école, un chemin piéton vers la gare et des jardins partagés. Ce qui l’a surprise, c’est le sérieux des débats. Les participants lisent les devis, posent des questions aux services, reviennent avec des contre-propositions. Elle reconnaît aussi les limites : les plus jeunes viennent peu, et certains conseillers municipaux se sentent dépossédés. Mais elle ne reviendra pas en arrière.',
    notes:
      'Hélène Kervella est maire d’une commune de quatre mille habitants près de Lorient. Elle a confié un tiers du budget d’investissement à une assemblée de quarante habitants tirés au sort. Entretien sur ce pari, ses réussites et ses limites.',
    bullets: [
      'Pourquoi confier le budget à des habitants tirés au sort',
      'L’école, le chemin piéton et les jardins partagés',
      'Le sérieux inattendu des débats',
      'Les absents et les élus qui se sentent dépossédés',
    ],
  },
  {
    show: 'a-contre-courant',
    slug: 'le-dernier-medecin-du-plateau',
    title: 'Paul Verdier, le dernier médecin du plateau',
    published: '2026-04-20T07:00:00+02:00',
    summary:
      'À soixante-huit ans, Paul Verdier refuse de prendre sa retraite tant qu’aucun médecin ne le remplace sur le plateau où il exerce depuis quarante ans. Il parle des déserts médicaux sans langue de bois.',
    tags: ['sante-publique', 'services-publics'],
    script:
      'Paul Verdier a soixante-huit ans. Il pourrait être à la retraite depuis longtemps. Pourtant, chaque matin, il ouvre son cabinet sur le plateau où il soigne les habitants depuis quarante ans. Si je pars, explique-t-il, trois mille patients n’auront plus de médecin à moins de quarante minutes de route. Il a tout essayé pour trouver un successeur : annonces, maison de santé, logement offert par la commune. Les jeunes médecins viennent, visitent, puis repartent. Il ne leur en veut pas. Ils veulent travailler en équipe, avoir des horaires, une vie de famille. Ce qu’il reproche, c’est l’absence de politique nationale à la hauteur. Il demande une vraie obligation d’installation pour les premières années. En attendant, il continue.',
    notes:
      'Paul Verdier, soixante-huit ans, exerce depuis quarante ans sur un plateau rural où il est le dernier médecin généraliste. Il refuse de partir tant que personne ne le remplace, et dit sans détour ce qu’il pense de la lutte contre les déserts médicaux.',
    bullets: [
      'Trois mille patients sans médecin à moins de quarante minutes',
      'Annonces, maison de santé, logement offert : tout a été tenté',
      'Ce que veulent les jeunes médecins',
      'Pour une obligation d’installation en début de carrière',
    ],
  },
  {
    show: 'a-contre-courant',
    slug: 'l-ingenieure-qui-a-quitte-le-petrole',
    title: 'Marion Agostini, l’ingénieure qui a quitté le pétrole',
    published: '2026-06-29T07:00:00+02:00',
    summary:
      'Ingénieure dans une grande compagnie pétrolière pendant douze ans, Marion Agostini a démissionné pour installer des réseaux de chaleur dans les petites villes. Elle raconte ce départ et ce qu’il lui a appris.',
    tags: ['energie', 'climat', 'travail'],
    script:
      'Pendant douze ans, Marion Agostini a conçu des plateformes de forage. Elle aimait son métier, ses collègues, la difficulté technique. Puis, un soir, en lisant un rapport sur le climat, elle a fait le calcul de ce que représentaient ses propres projets. Je ne pouvais plus faire semblant de ne pas savoir, dit-elle. Elle a démissionné, perdu la moitié de son salaire, et rejoint une coopérative qui installe des réseaux de chaleur au bois et à la géothermie dans des villes de dix mille habitants. Le travail est moins spectaculaire, reconnaît-elle, mais elle voit les résultats : des factures qui baissent, des chaudières au fioul qui disparaissent. Elle ne juge pas ceux qui restent. Elle constate seulement que de plus en plus d’anciens collègues l’appellent.',
    notes:
      'Marion Agostini a passé douze ans à concevoir des plateformes de forage pour une grande compagnie pétrolière. Elle a tout quitté pour une coopérative qui installe des réseaux de chaleur dans les petites villes. Entretien sur un départ qui ne relève ni du coup de tête ni de la posture.',
    bullets: [
      'Le soir où elle a refait le calcul',
      'La moitié du salaire en moins',
      'Bois, géothermie et réseaux de chaleur dans les villes moyennes',
      'Les anciens collègues qui appellent',
    ],
  },
  {
    show: 'a-contre-courant',
    slug: 'juger-en-vingt-minutes',
    title: 'Nadia Benhamou : « On ne juge pas bien en vingt minutes »',
    published: '2026-09-21T07:00:00+02:00',
    summary:
      'Juge au tribunal judiciaire de Paris, Nadia Benhamou a présidé pendant six ans des audiences de comparution immédiate. Elle explique pourquoi cette justice rapide l’inquiète.',
    tags: ['justice', 'paris'],
    script:
      'Nadia Benhamou est juge au tribunal judiciaire de Paris. Pendant six ans, elle a présidé des audiences de comparution immédiate, ces procès organisés quelques jours après l’interpellation. Certains soirs, raconte-t-elle, nous jugions quinze dossiers d’affilée. Vingt minutes par personne, parfois moins. Elle décrit des prévenus qui découvrent leur avocat dans le couloir, des enquêtes sociales bouclées en une heure, des peines de prison prononcées tard dans la nuit. Elle ne dit pas que les juges travaillent mal. Elle dit que le cadre les empêche de bien travailler. Elle plaide pour limiter ce type de procédure et pour donner aux tribunaux les greffiers et les moyens qui leur manquent. Une justice trop rapide, conclut-elle, finit toujours par coûter plus cher.',
    notes:
      'Nadia Benhamou a présidé pendant six ans des audiences de comparution immédiate au tribunal judiciaire de Paris. Elle raconte les soirées à quinze dossiers, les avocats rencontrés dans le couloir et les peines prononcées tard dans la nuit, et plaide pour une justice qui prenne le temps.',
    bullets: [
      'Quinze dossiers d’affilée, vingt minutes par personne',
      'L’avocat découvert dans le couloir',
      'Des juges empêchés de bien travailler',
      'Limiter la procédure et recruter des greffiers',
    ],
  },
);

episodes.push(
  {
    show: 'la-fabrique-de-l-info',
    slug: 'verifier-une-video',
    title: 'Vérifier une vidéo en moins d’une heure',
    published: '2026-01-26T08:00:00+01:00',
    summary:
      'Une vidéo choc circule sur les réseaux sociaux : est-elle authentique, récente, bien située ? Les étapes que suit la rédaction avant d’en parler, ou de ne pas en parler.',
    tags: ['medias', 'numerique'],
    script:
      'Une vidéo circule depuis ce matin. On y voit une manifestation qui dégénère, et elle a déjà été partagée des dizaines de milliers de fois. Avant d’en parler, la rédaction se pose trois questions. D’abord, est-elle authentique ? On cherche la première publication, on compare avec d’autres images du même moment. Ensuite, est-elle récente ? Beaucoup de vidéos virales ont en réalité plusieurs années. Enfin, où a-t-elle été tournée ? Une enseigne, un panneau, la forme d’un toit suffisent parfois à situer une scène. Si l’une de ces réponses manque, nous ne publions pas. Et quand la vidéo est fausse, nous l’expliquons, sans la rediffuser en entier. Vérifier prend du temps, mais se tromper en prend beaucoup plus.',
    notes:
      'Une vidéo spectaculaire circule et tout le monde la partage. Avant d’en parler, la rédaction se pose trois questions simples : est-elle authentique, est-elle récente, où a-t-elle été tournée ? Les coulisses d’une vérification.',
    bullets: [
      'Retrouver la première publication',
      'Dater une image : le piège des vidéos recyclées',
      'Situer une scène grâce à une enseigne ou un toit',
      'Expliquer un faux sans le rediffuser',
    ],
  },
  {
    show: 'la-fabrique-de-l-info',
    slug: 'pourquoi-publier-nos-sources',
    title: 'Pourquoi nous publions nos sources',
    published: '2026-04-06T08:00:00+02:00',
    summary:
      'Rapports, jugements, données publiques : à la fin de chaque enquête, Contrechamp publie les documents sur lesquels elle s’appuie. Ce choix a un coût, et il a ses limites.',
    tags: ['medias', 'democratie'],
    script:
      'À la fin de chacune de nos enquêtes, vous trouvez une liste de documents : rapports, décisions de justice, tableaux de données. Ce n’est pas une coquetterie. Nous pensons que la confiance ne se décrète pas, elle se vérifie. Publier nos sources, c’est vous permettre de refaire une partie du chemin, de contester une lecture, de repérer une erreur. Cela nous oblige aussi à être plus rigoureux : un chiffre qu’on doit montrer, on le vérifie deux fois. Il y a des limites, bien sûr. Nous ne publions jamais ce qui permettrait d’identifier une source qui a demandé l’anonymat. Protéger ceux qui nous parlent passe avant tout. Mais tout ce qui peut être montré, nous le montrons.',
    notes:
      'À la fin de chaque enquête, Contrechamp publie les documents sur lesquels elle s’appuie. Pourquoi ce choix, ce qu’il nous oblige à faire, et ce que nous ne publierons jamais.',
    bullets: [
      'La confiance ne se décrète pas, elle se vérifie',
      'Un chiffre qu’on doit montrer, on le vérifie deux fois',
      'La protection des sources avant tout',
    ],
  },
  {
    show: 'la-fabrique-de-l-info',
    slug: 'qui-paie-l-information-locale',
    title: 'Qui paie l’information locale ?',
    published: '2026-08-24T08:00:00+02:00',
    summary:
      'Fermetures d’agences, correspondants payés à la pige, titres rachetés : l’information locale s’appauvrit. Tour d’horizon de ceux qui tentent de la financer autrement.',
    tags: ['medias', 'services-publics'],
    script:
      'Dans beaucoup de départements, il n’y a plus qu’un seul journal, et parfois plus aucune agence locale. Les conseils municipaux se tiennent sans journaliste dans la salle. Les correspondants, souvent payés quelques euros par article, couvrent à eux seuls plusieurs cantons. Qui paie l’information locale ? De moins en moins les annonceurs, partis vers les grandes plateformes. Restent les lecteurs, les collectivités et quelques fondations. Chaque modèle a ses risques : un journal financé par la mairie peut-il enquêter sur la mairie ? Des expériences intéressantes existent pourtant, comme ces médias coopératifs où les abonnés sont aussi sociétaires. Ils sont fragiles, mais ils prouvent qu’une autre voie est possible. Sans information locale, c’est toute la démocratie qui perd la vue.',
    notes:
      'Agences fermées, correspondants payés quelques euros par article, conseils municipaux sans journaliste : l’information locale s’appauvrit. Qui peut encore la financer, et à quelles conditions ?',
    bullets: [
      'Des conseils municipaux sans journaliste dans la salle',
      'Annonceurs, lecteurs, collectivités : qui paie quoi',
      'Un journal financé par la mairie peut-il enquêter sur la mairie ?',
      'Les médias coopératifs, une voie fragile',
    ],
  },
  {
    show: 'la-fabrique-de-l-info',
    slug: 'corriger-une-erreur',
    title: 'Corriger une erreur, en public',
    published: '2026-11-18T08:00:00+01:00',
    summary:
      'Tous les médias se trompent. Ce qui les distingue, c’est la manière dont ils corrigent. Comment Contrechamp signale et répare ses erreurs, et pourquoi elle le fait en public.',
    tags: ['medias'],
    script:
      'Le mois dernier, nous avons publié un chiffre faux. Une erreur de virgule dans un tableau, repérée par une lectrice le lendemain matin. Nous l’avons corrigée dans l’heure, et nous avons ajouté une note en bas de l’article pour dire ce qui avait changé, et quand. C’est notre règle : une correction ne s’efface pas, elle se signale. Tous les médias se trompent. Ce qui fait la différence, c’est la manière dont ils le reconnaissent. Une correction discrète protège l’amour-propre de la rédaction. Une correction visible protège la confiance des lecteurs. Chaque trimestre, nous publions aussi la liste de toutes nos corrections. Elle n’est pas toujours flatteuse. Mais elle dit la vérité sur notre travail, et c’est bien notre métier.',
    notes:
      'Une erreur de virgule, repérée par une lectrice le lendemain de la publication. Comment Contrechamp corrige ses erreurs, pourquoi elle le signale en bas de l’article et pourquoi elle publie chaque trimestre la liste de ses corrections.',
    bullets: [
      'Une erreur de virgule et une lectrice attentive',
      'Une correction ne s’efface pas, elle se signale',
      'La liste trimestrielle de nos corrections',
    ],
  },
);

/**
 * Bonus episodes, reserved to supporters (« Réservé aux soutiens »): `supportersOnly` puts their
 * audio in the private folder media/soutiens/ (never public/) and the flag in their front matter.
 */
episodes.push(
  {
    show: 'les-voix-du-terrain',
    slug: 'annick-vingt-deux-ans-de-guichet',
    title: 'Bonus : Annick, vingt-deux ans de guichet',
    published: '2026-01-12T06:00:00+01:00',
    supportersOnly: true,
    summary:
      'La guichetière de la dernière poste du canton nous a accordé une heure après la fermeture. Ce qu’elle n’avait pas eu le temps de dire au guichet, pour les soutiens de Contrechamp.',
    tags: ['services-publics', 'bretagne', 'travail'],
    script:
      'Ce bonus est réservé aux soutiens de Contrechamp. Merci à vous. Il est dix-sept heures, le rideau du bureau de poste est baissé. Annick range le tiroir-caisse et s’assoit enfin. Pendant notre reportage, elle n’avait eu que quelques minutes entre deux clients. Ce soir, elle prend le temps. Elle raconte ses débuts, en deux mille quatre, quand le bureau ouvrait six jours sur sept. Elle parle de ceux qui viennent moins pour un colis que pour une conversation, de la vieille dame qui lui confie ses factures, de l’agriculteur qui lui demande de relire un courrier de la banque. Elle ne sait pas encore ce qu’elle fera au printemps. Une chose l’inquiète plus que son poste : qui, ici, prendra le temps d’écouter ?',
    notes:
      'Après la fermeture du bureau, Annick, la guichetière de la dernière poste du canton, prend enfin le temps de raconter vingt-deux ans de guichet. L’entretien que le reportage n’avait pas la place de diffuser.',
    bullets: [
      'Les débuts, quand le bureau ouvrait six jours sur sept',
      'Ceux qui viennent pour une conversation plus que pour un colis',
      'Relire un courrier de la banque, un service qui ne figure dans aucun contrat',
      'Et après le printemps ?',
    ],
  },
  {
    show: 'la-fabrique-de-l-info',
    slug: 'dans-la-conference-de-redaction',
    title: 'Bonus : dans la conférence de rédaction',
    published: '2026-11-25T08:00:00+01:00',
    supportersOnly: true,
    summary:
      'Chaque lundi à neuf heures, la rédaction choisit ce qu’elle couvrira dans la semaine, et ce qu’elle laissera de côté. Pour une fois, nous avons laissé le micro ouvert.',
    tags: ['medias', 'democratie'],
    script:
      'Ce bonus est réservé aux soutiens de Contrechamp, parce que c’est grâce à vous que cette réunion existe. Lundi, neuf heures. Autour de la table, huit journalistes et une longue liste de sujets. Il y en a toujours trop. Une enquête sur l’eau potable attend des documents depuis trois semaines. Un reportage à Lyon peut partir dès demain. Une polémique agite les réseaux sociaux depuis la veille. Faut-il en parler ? La règle est simple : nous ne traitons un sujet que si nous pouvons y apporter quelque chose de plus. Ce matin-là, la polémique est écartée en deux minutes. L’enquête sur l’eau, elle, obtient une semaine de plus. Choisir, c’est aussi renoncer, et c’est notre indépendance qui nous permet de le faire.',
    notes:
      'Lundi, neuf heures : la rédaction de Contrechamp choisit les sujets de la semaine. Pour ses soutiens, nous avons enregistré la conférence de rédaction, ses arbitrages et ce qu’elle laisse de côté.',
    bullets: [
      'Trop de sujets pour une semaine',
      'Apporter quelque chose de plus, ou ne rien dire',
      'Une polémique écartée en deux minutes',
      'Choisir, c’est aussi renoncer',
    ],
  },
  {
    show: 'a-contre-courant',
    slug: 'vos-questions-a-aminata-diallo',
    title: 'Bonus : vos questions à Aminata Diallo',
    published: '2026-10-05T07:00:00+02:00',
    supportersOnly: true,
    summary:
      'Comment choisit-elle ses invités, comment prépare-t-elle un entretien, que fait-elle quand on lui ment ? Aminata Diallo répond aux questions envoyées par les soutiens.',
    tags: ['medias'],
    script:
      'Ce bonus est réservé aux soutiens de Contrechamp. Vous nous avez envoyé plus de deux cents questions. Aminata Diallo répond aux plus fréquentes. Comment choisit-elle ses invités ? Jamais pour leur notoriété, toujours pour un choix qu’ils ont fait et qui leur a coûté quelque chose. Comment prépare-t-elle un entretien ? Trois semaines de lecture, puis une seule page de notes, pour rester à l’écoute plutôt que de dérouler des questions. Que fait-elle quand un invité ne dit pas la vérité ? Elle vérifie après l’enregistrement, et si un fait est faux, nous le signalons à l’antenne. Et la question qu’on lui pose le plus souvent : a-t-elle déjà regretté un entretien ? Oui, une fois. Elle raconte pourquoi.',
    notes:
      'Plus de deux cents questions envoyées par les soutiens de Contrechamp. Aminata Diallo, la voix d’À contre-courant, répond aux plus fréquentes : le choix des invités, la préparation, les erreurs, et un entretien qu’elle regrette.',
    bullets: [
      'Choisir un invité pour ce que ses choix lui ont coûté',
      'Trois semaines de lecture, une page de notes',
      'Quand un invité ne dit pas la vérité',
      'Le seul entretien qu’elle regrette',
    ],
  },
);
