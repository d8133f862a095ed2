export const consoleSignIn = {
  'console.signIn.title': 'Sign in',
  'console.signIn.workspace': 'Sign in to your workspace',
  'console.signIn.console': 'Sign in to the feedback console',
  'console.signIn.ssoOnly':
    'You are signed in with single sign-on to {workspaces}. Your other workspaces open with an emailed code.',
  'console.signIn.aWorkspace': 'a workspace',
  'console.signIn.email': 'Your work email',
  'console.signIn.sendCode': 'Email me a sign-in code',
  'console.signIn.sso': 'Sign in with single sign-on',
  'console.signIn.ownPage':
    'Your workspace signs in with single sign-on from its own page? Your admin has its address (<code>/console/<em>workspace id</em>/sign-in</code>).',
  'console.signIn.checkEmail': 'Check your email',
  'console.signIn.codeSent':
    'If that address is on a team, a code and a link are on their way. The code works once, for 15 minutes.',
  'console.signIn.code': 'Code',
  'console.signIn.submit': 'Sign in',
  'console.signIn.paused':
    'Too many wrong codes were typed for this address, so codes for it are paused until <time>{until} UTC</time>.',
  'console.signIn.linkInstead':
    'If the address is on a team, a sign-in link is on its way instead: it works once, for 15 minutes.',
  'console.signIn.signingIn': 'Signing in',
  'console.signIn.continuing': 'Continuing to your sign-in provider',
  'console.signIn.continue': 'Continue to sign in',
  'console.signIn.noSso': 'This workspace does not sign in with single sign-on: use the emailed code.',
  'console.signIn.badEmail': 'Enter an email address like name@example.com.',
} as const;
