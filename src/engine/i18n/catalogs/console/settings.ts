export const consoleSettings = {
  'console.settings.heading': 'Settings',
  'console.settings.workspace': 'Workspace',
  'console.settings.name': 'Name',
  'console.settings.admins':
    'Admin addresses <muted>(one per line: they get notices such as a disabled webhook)</muted>',
  'console.settings.save': 'Save',
  'console.settings.operator': 'Set by whoever runs this server (<code>feedback-service org update</code>)',
  'console.settings.plan': 'Plan',
  'console.settings.billing': 'Billing',
  'console.settings.readOnly': 'read only: changes through the API are refused',
  'console.settings.active': 'active',
  'console.settings.contacts': 'Contacts',
  'console.settings.unlimited': 'unlimited',
  'console.settings.atMost': 'at most {count, number}',
  'console.settings.requests': 'API requests',
  'console.settings.perMinute': '{count, number} a minute per key',
  'console.settings.portal': 'Portal',
  'console.settings.portalAt': 'The portal is at <link>{address}</link>.',
  'console.settings.portalOff': 'The portal is off.',
  'console.settings.handle':
    'Handle <muted>(its address: /portal/<em>handle</em>/; lower-case letters, digits and dashes)</muted>',
  'console.settings.portalOn': 'The portal is on',
  'console.settings.moderation':
    'Hold posts by people who are not signed in with your token until someone approves them',
  'console.settings.verifiedOnly': 'Only people signed in with your token may post, vote and comment',
  'console.settings.notifyAdminCreated': 'Mail contacts added by hand (you attest a lawful basis when adding each)',
  'console.settings.frames':
    'Sites that may frame the portal <muted>(the widget; one origin per line, e.g. https://app.example.com)</muted>',
  'console.settings.branding': 'Branding',
  'console.settings.logo':
    'Logo <muted>(the https address of an image, shown in the portal’s header; empty for the name alone)</muted>',
  'console.settings.accent': 'Accent colour <muted>(links and buttons; dark enough to read on white)</muted>',
  'console.settings.defaultColour': 'Use the default colour',
  'console.settings.search': 'Search',
  'console.settings.searchIntro':
    "How searches on the portal and here forgive what people type: a word also finds its stem's words (<em>exporting</em> finds <em>export</em>), and a word of five letters or more one typo away (<em>dashbord</em>). What was typed comes first.",
  'console.settings.stems': "Language of the words' stems",
  'console.settings.stemsNone': 'none (words as written)',
  'console.settings.synonyms':
    'Synonyms <muted>(one group a line, separated by commas: each finds the others, e.g. sso, single sign-on, saml)</muted>',
  'console.settings.sso': 'Single sign-on',
  'console.settings.ssoIntro':
    'OpenID Connect (Google Workspace, Okta, Entra ID, Keycloak...). Register a web application at your provider with the redirect URI <code>{callback}</code>. Single sign-on signs in people on the team; it does not add anyone.',
  'console.settings.off': 'Off.',
  'console.settings.issuer': 'Issuer',
  'console.settings.clientId': 'Client id',
  'console.settings.clientSecret':
    'Client secret <muted>({again, select, yes {type it again to save a change: it is never shown} other {sealed at rest, never shown}})</muted>',
  'console.settings.domains': 'Email domains that sign in this way <muted>(one per line)</muted>',
  'console.settings.saveSso': 'Save single sign-on',
  'console.settings.ssoOff': 'Turn single sign-on off',
  'console.settings.languages': 'Languages',
  'console.settings.languagesIntro':
    "The portal, the widget and their mail speak each person's language: the one they chose (or your app gives), else their browser's, else the default below. Ten languages: {names}.",
  'console.settings.defaultLanguage': 'Default language',
  'console.settings.wording':
    "Your own words <muted>(one a line, language:message=your words, e.g. de:board.newPost=Idee einreichen; the messages' names are in the portal's guide)</muted>",
  'console.settings.ssoOn': 'On: <code>{issuer}</code> (client <code>{client}</code>).',
  'console.settings.ownPage':
    "Your workspace's sign-in page: <link>{page}</link>. Single sign-on works there for every domain below. The shared sign-in page sends an address to your provider only once its domain is verified, which proves the domain is yours.",
  'console.settings.domainsCaption': 'Domains',
  'console.settings.verified':
    'Verified ({by, select, operator {by whoever runs this server} other {DNS}}{at, select, none {} other {, {at}}})',
  'console.settings.notVerified':
    'Not verified. Add a TXT record <code>{name}</code> with the value <code>{value}</code> at your DNS provider, then',
  'console.settings.check': 'Check {domain}',
  'console.settings.require':
    'Require single sign-on for people of the verified domains: no emailed codes for their addresses in this workspace{verified, select, yes {} other { (verify a domain first)}}',
  'console.settings.badLine': 'Line {line} of your own words: write it as language:message=words.',
} as const;
