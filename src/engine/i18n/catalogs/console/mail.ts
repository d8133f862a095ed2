export const consoleMail = {
  'console.mail.signIn': 'Sign in',
  'console.mail.from': 'Feedback console',
  'console.mail.codeSubject': '{code} is your feedback console code',
  'console.mail.linkSubject': 'Your feedback console sign-in link',
  'console.mail.asked': 'Someone asked to sign in to the feedback console as {email} on {when}.',
  'console.mail.code': 'Your code is {code}.{link, select, yes { Or open the link below.} other {}}',
  'console.mail.paused':
    'Sign-in codes for this address are paused after too many wrong codes were typed, so this message has a link only.',
  'console.mail.works':
    'It works once, for {minutes, plural, one {# minute} other {# minutes}}. If it was not you, ignore this message: nobody can sign in without {code, select, yes {the code or the link} other {the link}}. Never share it.',
  'console.mail.join': 'Join {workspace}',
  'console.mail.invited': "You are invited to {workspace}'s feedback console",
  'console.mail.added': "{by} added you to {workspace}'s team as {role}.",
  'console.mail.openLink':
    "Open the link below to sign in. It works once, for {days, plural, one {# day} other {# days}}; after that, sign in on the console's sign-in page with your address{url, select, none {} other { ({url})}}.",
  'console.mail.signInPage': "Sign in on the console's sign-in page with your address: a code will be mailed to you.",
  'console.mail.footer': 'Sent by the feedback console.',
  'console.mail.webhookDisabled': 'Webhook disabled after {failures} failed deliveries: {url}',
  'console.mail.webhookDisabledText':
    'The webhook {id} ({url}) of {workspace} was disabled after {failures} consecutive failed delivery attempts.',
  'console.mail.webhookEnded': 'Its pending deliveries were ended as failed (reason webhook_disabled).',
  'console.mail.webhookAgain':
    "Once the receiver works again, re-enable it with PATCH /v1/webhooks/{id} '{\"enabled\": true}', and replay the deliveries you need with POST /v1/webhooks/{id}/deliveries/'{deliveryId}'/replay.",
  'console.mail.whyAdmin': 'You get this because you are an admin of {workspace}.',
} as const;
